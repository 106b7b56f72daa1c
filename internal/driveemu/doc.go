// Package driveemu is an in-process emulator of the Google Drive API v3, an
// http.Handler that the real google.golang.org/api/drive/v3 client can be
// pointed at:
//
//	emu := driveemu.New()
//	folder := emu.AddFolder("root", "Projects")
//	emu.AddDoc(folder, "Plan", "the plan text")
//	srv := httptest.NewServer(emu)
//	svc, _ := drive.NewService(ctx,
//		option.WithEndpoint(srv.URL+"/drive/v3/"), option.WithoutAuthentication())
//
// It serves files.list (the q language, paging, orderBy, fields, corpora and
// the Shared drive flags), files.get (metadata and alt=media), files.export,
// about.get, drives.list, drives.get and the changes feed
// (changes.getStartPageToken, changes.list: see changeLog), with errors shaped like Drive's so
// they surface as *googleapi.Error with Code and Errors[0].Reason.
//
// [Users] serves several Google users behind one endpoint: the bearer token
// of each request picks the user's own Emulator (files, Shared drives,
// about.get), and a token it does not accept gets Drive's 401 authError.
//
// Faults (latency, 429, 403 rate limits, 5xx, dropped connections, truncated
// bodies) are injected with [Emulator.Faults]; [Emulator.Stats] counts calls
// per endpoint and injected faults.
//
// Where Drive's behaviour is undocumented the emulator picks a rule and states
// it: see [Tokens] for fullText and name matching of Japanese text.
//
// Known differences from Drive:
//   - pageSize is capped at 100 (the reference text) although the discovery
//     schema of the client says 1000; [Emulator.SetMaxPageSize] changes it.
//   - files.export produces the text formats (text/plain, text/markdown,
//     text/html, text/csv, text/tab-separated-values); binary formats that
//     Drive would produce (PDF, DOCX...) answer 501 notImplemented.
//   - fullText matches the name, description, export text, File.IndexText,
//     text blobs and, as Drive does, the text of PDF and Office blobs
//     (extracted with internal/extract). Results come in insertion order, not by
//     relevance. Page tokens are offsets, so a change between two pages may
//     shift items, as it may in Drive.
//   - The changes feed is one log for My Drive and every Shared drive: a
//     page token is a position in it (a decimal number, as Drive's are),
//     and a token from getStartPageToken with a driveId is valid without
//     it. Change times are deterministic (one second per change after the
//     base time), not the wall clock. Drive changes (changeType "drive")
//     are not reported. [Emulator.ExpireChanges] makes old tokens invalid.
//   - No uploads, permissions API or revisions; a file without
//     permission is simply invisible (404 notFound, absent from lists).
//   - A missing supportsAllDrives hides Shared drive items from files.get
//     and files.list; files.export has no such parameter and finds them.
package driveemu
