package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"cmd.mcp.usage": {En: "Serve gds as an MCP server over stdio (tools: search, ask, get_file)", Ja: "gds を stdio の MCP サーバーとして提供します（ツール: search、ask、get_file）"},
			"cmd.mcp.desc": {En: "Speaks the Model Context Protocol on standard input and output for MCP clients such as Claude Desktop: search (the hybrid loop; a clarifying question comes back with a state token to answer), ask (a cited answer) and get_file (one indexed file). Standard output carries only the protocol; messages go to standard error.",
				Ja: "Claude Desktop などの MCP クライアント向けに、標準入出力で Model Context Protocol を話します: search（ハイブリッド検索。確認の質問は state トークン付きで返ります）、ask（引用付きの回答）、get_file（索引済みファイル 1 件）。標準出力はプロトコル専用で、メッセージは標準エラーに出ます。"},
			"mcp.no_file_id": {En: "give the id of an indexed file", Ja: "索引済みファイルの id を指定してください"},
			"mcp.ready":      {En: "gds mcp: serving MCP on stdio (tools: search, ask, get_file)", Ja: "gds mcp: stdio で MCP を提供しています（ツール: search、ask、get_file）"},
		}
	})
}
