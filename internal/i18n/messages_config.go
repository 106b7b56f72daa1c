package i18n

// Messages of configuration errors (package config). Problems say what is
// wrong with the value; fixes say what to do.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"config.fix_sep": {En: "; ", Ja: "。"},

			"config.problem.no_home":          {En: "cannot determine the gds home directory (no HOME or user config directory)", Ja: "gds のホームディレクトリを決められません（HOME もユーザー設定ディレクトリもありません）"},
			"config.problem.read_env":         {En: "cannot read the .env file", Ja: ".env ファイルを読めません"},
			"config.problem.parse_env":        {En: "cannot parse the .env file", Ja: ".env ファイルを解析できません"},
			"config.problem.bad_source":       {En: "unknown source", Ja: "不明なソースです"},
			"config.problem.not_integer":      {En: "not a whole number", Ja: "整数ではありません"},
			"config.problem.out_of_range":     {En: "out of range", Ja: "範囲外の値です"},
			"config.problem.bad_provider":     {En: "unknown AI provider", Ja: "不明な AI プロバイダーです"},
			"config.problem.bad_ocr":          {En: "unknown OCR setting", Ja: "不明な OCR の設定です"},
			"config.problem.bad_db_url":       {En: "not a valid database URL", Ja: "データベース URL として不正です"},
			"config.problem.db_scheme":        {En: "the database URL must use the postgres:// or postgresql:// scheme", Ja: "データベース URL は postgres:// または postgresql:// で始まる必要があります"},
			"config.problem.db_host":          {En: "the database URL has no host", Ja: "データベース URL にホストがありません"},
			"config.problem.bad_http_url":     {En: "not an http:// or https:// URL", Ja: "http:// または https:// の URL ではありません"},
			"config.problem.bad_folder_id":    {En: "not a Google Drive folder ID", Ja: "Google Drive のフォルダ ID ではありません"},
			"config.problem.no_folders":       {En: "no target folder is set, and a Google Drive crawl needs at least one", Ja: "対象フォルダが設定されていません。Google Drive のクロールには 1 つ以上必要です"},
			"config.problem.openai_needs_key": {En: "GDS_AI_PROVIDER=openai needs an API key or a base URL", Ja: "GDS_AI_PROVIDER=openai には API キーまたはベース URL が必要です"},
			"config.fix.openai_key":           {En: "set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server, or use GDS_AI_PROVIDER=offline", Ja: "OPENAI_API_KEY を設定するか、ローカルの OpenAI 互換サーバーなら OPENAI_BASE_URL を設定するか、GDS_AI_PROVIDER=offline を使ってください"},
			"config.fix.set_home":             {En: "set GDS_HOME to a directory gds may use", Ja: "gds が使えるディレクトリを GDS_HOME に設定してください"},
			"config.fix.env_file":             {En: "fix or remove the file; lines look like NAME=value", Ja: "ファイルを修正するか削除してください（各行は NAME=value の形式です）"},
			"config.fix.source":               {En: "use \"drive\" or \"local:PATH\" (for example local:~/Documents)", Ja: "\"drive\" または \"local:PATH\"（例: local:~/Documents）を指定してください"},
			"config.fix.range":                {En: "use a whole number from %d to %d", Ja: "%d 以上 %d 以下の整数を指定してください"},
			"config.fix.provider":             {En: "use auto, openai or offline", Ja: "auto、openai、offline のいずれかを指定してください"},
			"config.problem.bad_tier":         {En: "unknown OpenAI usage tier", Ja: "不明な OpenAI の利用ティアです"},
			"config.problem.bad_prices":       {En: "not a list of model prices", Ja: "モデル価格の一覧として不正です"},
			"config.problem.bad_limits":       {En: "not a list of model rate limits", Ja: "モデルのレート制限の一覧として不正です"},
			"config.fix.tier":                 {En: "use free, 1, 2, 3, 4 or 5 (the tier on https://platform.openai.com/settings/organization/limits)", Ja: "free、1、2、3、4、5 のいずれかを指定してください（https://platform.openai.com/settings/organization/limits に表示されるティア）"},
			"config.fix.prices":               {En: "use MODEL=INPUT/OUTPUT in US dollars per million tokens, comma-separated (for example gpt-4o-mini=0.15/0.6)", Ja: "MODEL=入力/出力（100 万トークンあたりの米ドル）をカンマ区切りで指定してください（例: gpt-4o-mini=0.15/0.6）"},
			"config.fix.limits":               {En: "use MODEL=RPM/TPM, comma-separated (for example gpt-4o-mini=500/200000)", Ja: "MODEL=RPM/TPM をカンマ区切りで指定してください（例: gpt-4o-mini=500/200000）"},
			"config.fix.ocr":                  {En: "use auto, tesseract, model or off", Ja: "auto、tesseract、model、off のいずれかを指定してください"},
			"config.fix.db_url":               {En: "use a URL like postgresql://USER:PASSWORD@HOST:5432/DB, or unset DATABASE_URL and SUPABASE_DB_URL to use the embedded store", Ja: "postgresql://USER:PASSWORD@HOST:5432/DB の形式で指定するか、DATABASE_URL と SUPABASE_DB_URL を未設定にして内蔵ストアを使ってください"},
			"config.fix.http_url":             {En: "use a URL like https://host/path, or leave it empty", Ja: "https://host/path の形式で指定するか、空にしてください"},
			"config.fix.folder_ids":           {En: "set GOOGLE_DRIVE_TARGET_FOLDER_IDS to comma-separated folder IDs (the part after /folders/ in the folder's Drive URL)", Ja: "GOOGLE_DRIVE_TARGET_FOLDER_IDS にフォルダ ID（Drive の URL の /folders/ の後ろの部分）をカンマ区切りで設定してください"},
			"config.fix.folder_url":           {En: "use the folder ID %s instead of the URL", Ja: "URL ではなくフォルダ ID %s を指定してください"},
		}
	})
}
