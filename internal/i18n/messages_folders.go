package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"alfred.fulltext_fallback.notice": {En: "Full-text match only", Ja: "全文一致のみ"},
			"cmd.completion.usage":            {En: "print the shell completion script for bash, zsh, fish or pwsh", Ja: "bash、zsh、fish、pwsh の補完スクリプトを出力します"},
			"cmd.completion.desc": {
				En: "Homebrew installs the scripts; otherwise load one in your shell's start-up file:\n\n" +
					"  source <(gds completion bash)     # ~/.bashrc\n" +
					"  source <(gds completion zsh)      # ~/.zshrc\n" +
					"  gds completion fish > ~/.config/fish/completions/gds.fish",
				Ja: "Homebrew でインストールした場合は設定済みです。それ以外はシェルの起動ファイルで読み込みます:\n\n" +
					"  source <(gds completion bash)     # ~/.bashrc\n" +
					"  source <(gds completion zsh)      # ~/.zshrc\n" +
					"  gds completion fish > ~/.config/fish/completions/gds.fish",
			},
		}
	})
}
