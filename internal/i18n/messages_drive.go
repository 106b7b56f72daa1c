package i18n

// Messages of the Google Drive source (package drive).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"drive.folder.not_found":     {En: "Drive folder %s: not found, or you have no access to it; check the ID in GOOGLE_DRIVE_TARGET_FOLDER_IDS and that this Google account can open the folder", Ja: "Drive フォルダ %s: 見つからないか、アクセス権がありません。GOOGLE_DRIVE_TARGET_FOLDER_IDS の ID と、この Google アカウントでフォルダを開けるかを確認してください"},
			"drive.folder.no_permission": {En: "Drive folder %s: no permission to read it; ask its owner to share it with this Google account", Ja: "Drive フォルダ %s: 読み取る権限がありません。オーナーにこの Google アカウントへの共有を依頼してください"},
			"drive.folder.not_a_folder":  {En: "Drive folder %s: not a folder (it is a %s); put folder IDs in GOOGLE_DRIVE_TARGET_FOLDER_IDS", Ja: "Drive フォルダ %s: フォルダではありません（種類: %s）。GOOGLE_DRIVE_TARGET_FOLDER_IDS にはフォルダの ID を指定してください"},
			"drive.folder.shortcut":      {En: "Drive folder %s: a shortcut, not a folder; use the folder's own ID %s", Ja: "Drive フォルダ %s: ショートカットでありフォルダではありません。フォルダ本体の ID %s を指定してください"},
			"drive.folder.trashed":       {En: "Drive folder %s: in the trash; restore it or remove it from GOOGLE_DRIVE_TARGET_FOLDER_IDS", Ja: "Drive フォルダ %s: ゴミ箱に入っています。復元するか GOOGLE_DRIVE_TARGET_FOLDER_IDS から外してください"},

			"drive.skip.type":          {En: "not indexed: %s files are not searchable text", Ja: "インデックス対象外: %s は検索できるテキストではありません"},
			"drive.skip.native":        {En: "not indexed: this kind of Google file (%s) cannot be exported as text", Ja: "インデックス対象外: この種類の Google ファイル（%s）はテキストに書き出せません"},
			"drive.skip.too_large":     {En: "not indexed: larger than %s", Ja: "インデックス対象外: %s を超えています"},
			"drive.skip.export_limit":  {En: "not indexed: Google Drive cannot export files larger than 10 MB", Ja: "インデックス対象外: Google Drive は 10 MB を超えるファイルを書き出せません"},
			"drive.skip.not_readable":  {En: "not indexed: Drive refused the download (%s)", Ja: "インデックス対象外: Drive がダウンロードを拒否しました（%s）"},
			"drive.skip.gone":          {En: "not indexed: the file no longer exists or is no longer shared with you", Ja: "インデックス対象外: ファイルが削除されたか、共有が解除されました"},
			"drive.incomplete_listing": {En: "Google Drive returned an incomplete listing; run the crawl again later", Ja: "Google Drive の一覧が不完全でした。しばらくしてから再度クロールしてください"},
		}
	})
}
