package i18n

// Messages of `gds schedule`, the crawl lock, and `gds alfred workflow/install`.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"schedule.bad_interval": {En: "--interval %s: at least %s", Ja: "--interval %s: %s 以上を指定してください"},
			"flag.schedule.write":   {En: "Linux: write and enable the systemd user timer (without it the units are only printed)", Ja: "Linux: systemd ユーザータイマーを書き込んで有効にします（指定しなければ表示のみ）"},
			"flag.schedule.cron":    {En: "print a crontab line instead (for cron users)", Ja: "代わりに crontab の行を表示します（cron を使う場合）"},

			"schedule.installed":         {En: "Installed the launchd agent %s: `gds crawl` runs every %s and at login.", Ja: "launchd エージェント %s をインストールしました。`gds crawl` を %s ごとと、ログイン時に実行します。"},
			"schedule.installed.systemd": {En: "Installed and enabled %s.timer: `gds crawl` runs every %s.", Ja: "%s.timer をインストールして有効にしました。`gds crawl` を %s ごとに実行します。"},
			"schedule.paths":             {En: "  file: %s\n  program: %s\n  logs: %s", Ja: "  ファイル: %s\n  プログラム: %s\n  ログ: %s"},
			"schedule.cwd_env_warning":   {En: "Warning: settings from %s are not seen by the scheduled crawl (it runs with GDS_HOME=%s); move them to %s.", Ja: "警告: %s の設定はスケジュール実行のクロールからは見えません（GDS_HOME=%s で実行されます）。%s に移してください。"},
			"schedule.linux.intro":       {En: "# systemd user timer (install it with: gds schedule install --write)", Ja: "# systemd ユーザータイマー（インストール: gds schedule install --write）"},
			"schedule.linux.cron":        {En: "# or, for cron, add this line with `crontab -e` (or: gds schedule install --cron):", Ja: "# cron を使う場合は `crontab -e` でこの行を追加します（または: gds schedule install --cron）:"},
			"schedule.linux.cron_none":   {En: "# cron cannot express this interval (%v); pick a divisor of 60 minutes or 24 hours for cron.", Ja: "# この間隔は cron では表せません（%v）。cron には 60 分または 24 時間の約数を指定してください。"},
			"schedule.removed":           {En: "Removed the crawl schedule (%s).", Ja: "クロールのスケジュールを削除しました（%s）。"},
			"schedule.nothing_removed":   {En: "No crawl schedule was installed.", Ja: "クロールのスケジュールはインストールされていませんでした。"},
			"schedule.started":           {En: "Started the scheduled crawl. Follow it with: %s", Ja: "スケジュールされたクロールを開始しました。進行状況: %s"},
			"schedule.not_installed":     {En: "the crawl schedule is not installed: run `gds schedule install`", Ja: "クロールのスケジュールがインストールされていません。`gds schedule install` を実行してください"},
			"schedule.unsupported":       {En: "gds schedule supports macOS (launchd) and Linux (systemd, cron); on %s use the system scheduler to run `gds crawl`", Ja: "gds schedule は macOS（launchd）と Linux（systemd、cron）に対応しています。%s ではシステムのスケジューラで `gds crawl` を実行してください"},

			"schedule.status.installed":     {En: "Schedule (%s): installed at %s", Ja: "スケジュール（%s）: %s にインストール済み"},
			"schedule.status.not_installed": {En: "Schedule (%s): not installed — run `gds schedule install`", Ja: "スケジュール（%s）: 未インストール — `gds schedule install` を実行してください"},
			"schedule.status.program":       {En: "  program: %s", Ja: "  プログラム: %s"},
			"schedule.status.interval":      {En: "  every: %s", Ja: "  間隔: %s"},
			"schedule.status.loaded":        {En: "  loaded: %s", Ja: "  読み込み: %s"},
			"schedule.status.running":       {En: "  running now: %s", Ja: "  実行中: %s"},
			"schedule.status.last_run":      {En: "  last run: %s", Ja: "  前回の実行: %s"},
			"schedule.status.last_exit":     {En: "  last exit code: %d", Ja: "  前回の終了コード: %d"},
			"schedule.status.last_line":     {En: "  last output: %s", Ja: "  前回の出力: %s"},
			"schedule.status.logs":          {En: "  logs: %s", Ja: "  ログ: %s"},
			"schedule.status.never":         {En: "never (or no log yet)", Ja: "なし（またはログがまだありません）"},
			"schedule.yes":                  {En: "yes", Ja: "はい"},
			"schedule.no":                   {En: "no", Ja: "いいえ"},

			"crawl.locked":      {En: "another gds crawl is running (pid %d); this one exits without crawling (lock %s)", Ja: "別の gds crawl が実行中です（pid %d）。このクロールは何もせずに終了します（ロック %s）"},
			"crawl.locked_hint": {En: "wait for it to finish; `gds schedule status` shows the scheduled crawl", Ja: "終了を待ってください。スケジュール実行のクロールは `gds schedule status` で確認できます"},

			"cmd.alfred.install.usage": {En: "build the Alfred workflow and open it in Alfred to install it", Ja: "Alfred ワークフローを作成し、Alfred で開いてインストールします"},
			"alfred.written":           {En: "Wrote the Alfred workflow: %s", Ja: "Alfred ワークフローを書き出しました: %s"},
			"alfred.opened":            {En: "Opened %s: confirm the import in Alfred, then type `gd <query>` in Alfred.", Ja: "%s を開きました。Alfred でインポートを確認し、Alfred で `gd <検索語>` と入力してください。"},
			"alfred.open_manually":     {En: "Alfred runs on macOS only: copy %s to your Mac and double-click it to install.", Ja: "Alfred は macOS 専用です。%s を Mac にコピーしてダブルクリックでインストールしてください。"},
		}
	})
}
