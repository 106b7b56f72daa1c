package i18n

// Messages of a damaged index: the error, its fix (`gds db rebuild`), the
// rebuild's progress and summary, and doctor's integrity check.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"store.damaged": {
				En: "the index %s is damaged: %s",
				Ja: "インデックス %s が破損しています: %s",
			},
			"store.damaged_record": {
				En: "the index record of file %s in %s cannot be read (the index is damaged): %s",
				Ja: "ファイル %s の記録をインデックス %s から読めません（インデックスが破損しています）: %s",
			},
			"store.damaged_hint": {
				En: "run `gds db rebuild`: it sets the damaged index aside, creates a new one and indexes every configured source and every upload again",
				Ja: "`gds db rebuild` を実行してください。破損したインデックスを退避し、新しいインデックスを作って、設定されたすべてのソースとアップロードを索引し直します",
			},
			"store.damaged_hint_postgres": {
				En: "the database reports damaged data: have its administrator repair it (REINDEX for a damaged index, a restore from backup for damaged tables), then run `gds crawl --full`",
				Ja: "データベースが破損を報告しています。管理者に修復を依頼し（破損したインデックスは REINDEX、破損したテーブルはバックアップからの復元）、その後 `gds crawl --full` を実行してください",
			},
			"crawl.summary.unreadable": {
				En: "Index records that could not be read (damaged), removed and indexed again:",
				Ja: "読めなかった（破損した）インデックスの記録。削除して索引し直しました:",
			},
			"crawl.summary.unreadable_dry_run": {
				En: "Index records that could not be read (damaged), which a crawl would remove and index again:",
				Ja: "読めなかった（破損した）インデックスの記録。クロールで削除して索引し直します:",
			},
			"doctor.skip.index":             {En: "skipped: the index could not be read", Ja: "省略: インデックスを読めませんでした"},
			"doctor.integrity.title":        {En: "index check", Ja: "インデックス検査"},
			"doctor.integrity.none":         {En: "nothing to check yet", Ja: "検査するインデックスはまだありません"},
			"doctor.integrity.postgres":     {En: "not run for Postgres (the database checks its own pages)", Ja: "Postgres では実行しません（データベース自身がページを検査します）"},
			"doctor.integrity.unavailable":  {En: "not available here", Ja: "ここでは実行できません"},
			"doctor.integrity.ok":           {En: "SQLite quick_check found no damage (%v)", Ja: "SQLite quick_check で破損は見つかりませんでした（%v）"},
			"doctor.integrity.partial":      {En: "SQLite quick_check found no damage in the part it read within %v (it stops there on a large index)", Ja: "SQLite quick_check は %v 以内に読んだ範囲で破損を見つけませんでした（大きなインデックスではそこで止めます）"},
			"doctor.integrity.postgres_fix": {En: "after the database's administrator repaired it", Ja: "データベースの管理者が修復した後に"},
			"doctor.integrity.error":        {En: "the check could not run: %v", Ja: "検査を実行できませんでした: %v"},
		}
	})
}
