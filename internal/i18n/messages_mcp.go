package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"cmd.mcp.usage": {En: "Serve gds as an MCP server over stdio (tools: search, ask, get_file, graph_query, federate)", Ja: "gds を stdio の MCP サーバーとして提供します（ツール: search、ask、get_file、graph_query、federate）"},
			"cmd.mcp.desc": {En: "Speaks the Model Context Protocol on standard input and output for MCP clients such as Claude Desktop: search (the hybrid loop; a clarifying question comes back with a state token to answer), ask (a cited answer), get_file (one indexed file), graph_query (GraphRAG over the entity graph, with references) and federate (Slack, GitHub and Drive searched directly). Standard output carries only the protocol; messages go to standard error.",
				Ja: "Claude Desktop などの MCP クライアント向けに、標準入出力で Model Context Protocol を話します: search（ハイブリッド検索。確認の質問は state トークン付きで返ります）、ask（引用付きの回答）、get_file（索引済みファイル 1 件）、graph_query（エンティティグラフによる GraphRAG。参照付き）、federate（Slack・GitHub・Drive を直接検索）。標準出力はプロトコル専用で、メッセージは標準エラーに出ます。"},
			"mcp.no_file_id": {En: "give the id of an indexed file", Ja: "索引済みファイルの id を指定してください"},
			"mcp.ready":      {En: "gds mcp: serving MCP on stdio (tools: search, ask, get_file, graph_query, federate)", Ja: "gds mcp: stdio で MCP を提供しています（ツール: search、ask、get_file、graph_query、federate）"},
			"mcp.no_question": {En: "question is empty: pass the question to answer in the question parameter",
				Ja: "question が空です。答える質問を question パラメーターに渡してください"},
			"mcp.graph.bad_mode": {En: "mode %q is not a graph_query mode: pass global, local or drift, or omit mode for global",
				Ja: "mode %q は graph_query のモードではありません。global、local、drift のいずれかを渡すか、mode を省いてください（global になります）"},
			"mcp.graph.bad_level": {En: "community_level %d is negative: pass 0 or more, or omit it for the default (2)",
				Ja: "community_level %d は負の値です。0 以上を渡すか、省いて既定値（2）にしてください"},
			"mcp.graph.bad_rank": {En: "min_community_rank %g is outside 0-10: pass a rank from 0 to 10, or omit it",
				Ja: "min_community_rank %g が 0〜10 の範囲外です。0 から 10 の値を渡すか、省いてください"},
			"mcp.graph.bad_tokens": {En: "max_context_tokens %d is too small: pass at least %d, or omit it for the default",
				Ja: "max_context_tokens %d は小さすぎます。%d 以上を渡すか、省いて既定値にしてください"},
			"mcp.graph.missing": {En: "this index has no entity graph yet, and this tool cannot build one: the user builds it in a terminal with `gds graph build`; until then, answer with the ask tool",
				Ja: "この索引にはまだエンティティグラフがなく、このツールでは作れません。利用者がターミナルで `gds graph build` を実行して作ります。それまでは ask ツールで答えてください"},
			"mcp.federate.config": {En: "the federate services are misconfigured in %s (%s), and this tool cannot fix it: the user corrects that file, or removes it to use the defaults; meanwhile pass mock true to try the tool",
				Ja: "federate のサービス設定 %s に誤りがあり（%s）、このツールでは直せません。利用者がそのファイルを修正するか、削除して既定の設定に戻します。それまでは mock に true を渡すと試せます"},
		}
	})
}
