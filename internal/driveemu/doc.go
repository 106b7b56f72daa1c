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
// about.get, drives.list and drives.get, with errors shaped like Drive's so
// they surface as *googleapi.Error with Code and Errors[0].Reason.
//
// Faults (latency, 429, 403 rate limits, 5xx, dropped connections, truncated
// bodies) are injected with [Emulator.Faults]; [Emulator.Stats] counts calls
// per endpoint and injected faults.
//
// Where Drive's behaviour is undocumented the emulator picks a rule and states
// it: see [Tokens] for fullText and name matching of Japanese text.
package driveemu
