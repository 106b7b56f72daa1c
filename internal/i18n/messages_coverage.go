package i18n

// Messages of the coverage check (`gds doctor`, `gds db status --coverage`).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"doctor.coverage.title":         {En: "Coverage", Ja: "網羅性"},
			"doctor.coverage.ok":            {En: "%s: all %d listed files indexed with their content", Ja: "%s: 一覧の %d 件すべてを内容ごと索引済み"},
			"doctor.coverage.diff":          {En: "%s: %d of %d listed files indexed with their content; %s", Ja: "%s: 内容ごと索引済み %d 件（一覧 %d 件中）。%s"},
			"doctor.coverage.offline":       {En: "%s: not listed (--offline)", Ja: "%s: 一覧を取得していません（--offline）"},
			"doctor.coverage.error":         {En: "%s: cannot compare: %s", Ja: "%s: 比較できません: %s"},
			"doctor.coverage.failed":        {En: "cannot read the index to compare: %s", Ja: "比較のためのインデックスを読めません: %s"},
			"doctor.coverage.sep":           {En: "; ", Ja: "、"},
			"coverage.skipped_type":         {En: "%d of a type gds does not read (%s)", Ja: "読まない種類 %d 件（%s）"},
			"coverage.too_large":            {En: "%d too large (%s)", Ja: "大きすぎる %d 件（%s）"},
			"coverage.name_only":            {En: "%d indexed by name only (%s)", Ja: "名前だけ索引 %d 件（%s）"},
			"coverage.failed":               {En: "%d failed in the last crawl, tried again by the next (%s)", Ja: "前回のクロールで失敗 %d 件、次回のクロールで再試行（%s）"},
			"coverage.failure.unavailable":  {En: "the source kept failing to answer", Ja: "ソースが応答に失敗し続けた"},
			"coverage.failure.rate_limited": {En: "rate limited", Ja: "レート制限"},
			"coverage.failure.auth":         {En: "sign-in needed", Ja: "サインインが必要"},
			"coverage.failure.too_complex":  {En: "over a reading limit", Ja: "読み取りの上限を超過"},
			"coverage.failure.too_large":    {En: "too large", Ja: "大きすぎる"},
			"coverage.failure.not_found":    {En: "not found", Ja: "見つからない"},
			"coverage.failure.index":        {En: "the index refused it", Ja: "インデックスが拒否"},
			"coverage.failure.error":        {En: "error", Ja: "エラー"},
			"coverage.not_crawled":          {En: "%d not crawled yet (%s)", Ja: "未クロール %d 件（%s）"},
			"coverage.changed":              {En: "%d changed since the last crawl (%s)", Ja: "前回のクロール後に変更 %d 件（%s）"},
			"coverage.gone":                 {En: "%d gone from the source (%s)", Ja: "ソースから消えた %d 件（%s）"},
			"coverage.progress":             {En: "Listing %s: %d files…", Ja: "%s を一覧中: %d 件…"},
			"flag.db.status.coverage":       {En: "also compare each source's listing with the index (lists Drive sources)", Ja: "各ソースの一覧とインデックスも比較する（Drive ソースは一覧を取得）"},
			"out.db.status.coverage":        {En: "Coverage:", Ja: "網羅性:"},
		}
	})
}
