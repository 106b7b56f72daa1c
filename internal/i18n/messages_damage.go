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
			"cmd.db.rebuild.usage": {
				En: "set a damaged index aside and build a new one from every configured source and every upload",
				Ja: "破損したインデックスを退避し、設定されたすべてのソースとアップロードから新しく作り直す",
			},
			"cmd.db.rebuild.desc": {
				En: "Use it when gds reports the index damaged (exit 5, `gds doctor` ✗). The index file and its -wal and -shm files are renamed to index.db.damaged-<time> (never deleted); a new index is created; every configured source (GDS_SOURCES) is crawled into it and every upload in the upload folder is indexed again, with its name, title and tags read back from the old index where they can still be read. A crawl lock keeps scheduled crawls out meanwhile. The embedded SQLite index only: a Postgres database is repaired by its administrator.",
				Ja: "インデックスが破損していると報告されたとき（終了コード 5、`gds doctor` の ✗）に使います。インデックスファイルとその -wal・-shm ファイルを index.db.damaged-<時刻> に名前を変えて残し（削除はしません）、新しいインデックスを作って、設定されたすべてのソース（GDS_SOURCES）をクロールし、アップロードフォルダのすべてのアップロードを索引し直します。名前・タイトル・タグは古いインデックスから読める限り読み戻します。その間はクロールのロックで定期クロールを止めます。組み込みの SQLite インデックスのみが対象で、Postgres データベースの修復は管理者が行います。",
			},
			"rebuild.postgres": {
				En: "gds db rebuild rebuilds the embedded SQLite index; this gds uses the Postgres database %s, which gds does not own",
				Ja: "gds db rebuild は組み込みの SQLite インデックスを作り直すコマンドです。この gds は Postgres データベース %s を使っており、それは gds の管理下にありません",
			},
			"rebuild.postgres_hint": {
				En: "a damaged Postgres database is its administrator's to repair (REINDEX for a damaged index, a restore from backup for damaged tables); then run `gds crawl --full`",
				Ja: "破損した Postgres データベースの修復は管理者が行います（破損したインデックスは REINDEX、破損したテーブルはバックアップからの復元）。その後 `gds crawl --full` を実行してください",
			},
			"rebuild.in_use": {
				En: "the index %s is open in another process (pid %d); it cannot be set aside while in use",
				Ja: "インデックス %s は別のプロセス（pid %d）が開いています。使用中は退避できません",
			},
			"rebuild.in_use_hint": {
				En: "stop that process (a search, `gds serve`, `gds mcp`), then run `gds db rebuild` again",
				Ja: "そのプロセス（検索、`gds serve`、`gds mcp` など）を止めてから、もう一度 `gds db rebuild` を実行してください",
			},
			"rebuild.failed_uploads": {
				En: "%d uploads could not be indexed again (their files are kept in the upload folder)",
				Ja: "%d 件のアップロードを索引し直せませんでした（ファイルはアップロードフォルダに残っています）",
			},
			"rebuild.set_aside":          {En: "Set aside %s as %s", Ja: "%s を %s に退避しました"},
			"rebuild.uploads":            {En: "Indexing %d uploads again (%d described by the old index)", Ja: "%d 件のアップロードを索引し直します（うち %d 件は古いインデックスから情報を読めました）"},
			"rebuild.uploads_unsalvaged": {En: "Indexing %d uploads again; nothing could be read from the old index (%s)", Ja: "%d 件のアップロードを索引し直します。古いインデックスからは何も読めませんでした（%s）"},
			"rebuild.upload":             {En: "upload %d/%d indexed: %s", Ja: "アップロード %d/%d を索引しました: %s"},
			"rebuild.upload_failed":      {En: "upload %d/%d not indexed: %s: %s", Ja: "アップロード %d/%d を索引できませんでした: %s: %s"},
			"rebuild.summary.uploads":    {En: "Uploads: %d of %d indexed again", Ja: "アップロード: %d 件を索引し直しました（全 %d 件）"},
			"rebuild.summary.meta_all":   {En: "names, titles and tags read back from the old index", Ja: "名前・タイトル・タグは古いインデックスから読み戻しました"},
			"rebuild.summary.meta_partial": {
				En: "read back from the old index: %d names, %d titles and tag lists of %d uploads; the others are named after their stored file, without title or tags",
				Ja: "古いインデックスから読み戻せたもの: 名前 %d 件、タイトルとタグ %d 件（全 %d 件中）。残りは保存ファイル名で、タイトルとタグはありません",
			},
			"rebuild.summary.meta_lost": {
				En: "the old index could not be read (%s): uploads are named after their stored file, without title or tags",
				Ja: "古いインデックスを読めませんでした（%s）。アップロードは保存ファイル名で、タイトルとタグはありません",
			},
			"rebuild.summary.ignored":   {En: "%d files in the upload folder are not uploads gds stored; left alone", Ja: "アップロードフォルダの %d 件は gds が保存したアップロードではないため、そのままにしました"},
			"rebuild.summary.set_aside": {En: "The old index is kept as %s (remove it when you no longer need it)", Ja: "古いインデックスは %s として残してあります（不要になったら削除してください）"},
			"rebuild.summary.done":      {En: "New index %s: %d files", Ja: "新しいインデックス %s: %d 件"},
		}
	})
}
