package driveemu

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Endpoint names used by fault rules and call counters.
const (
	EndpointList     = "files.list"
	EndpointGet      = "files.get"
	EndpointDownload = "files.download" // files.get with alt=media
	EndpointExport   = "files.export"
	EndpointAbout    = "about.get"
	EndpointDrives   = "drives.list"
	EndpointDriveGet = "drives.get"
	EndpointOther    = "other"
)

const apiPrefix = "/drive/v3/"

// route classifies a request: the endpoint name and the path parameter.
func route(r *http.Request) (endpoint, id string) {
	p, ok := strings.CutPrefix(r.URL.Path, apiPrefix)
	if !ok || r.Method != http.MethodGet {
		return EndpointOther, ""
	}
	parts := strings.Split(p, "/")
	switch {
	case len(parts) == 1 && parts[0] == "files":
		return EndpointList, ""
	case len(parts) == 2 && parts[0] == "files" && parts[1] != "":
		if r.URL.Query().Get("alt") == "media" {
			return EndpointDownload, parts[1]
		}
		return EndpointGet, parts[1]
	case len(parts) == 3 && parts[0] == "files" && parts[2] == "export":
		return EndpointExport, parts[1]
	case len(parts) == 1 && parts[0] == "about":
		return EndpointAbout, ""
	case len(parts) == 1 && parts[0] == "drives":
		return EndpointDrives, ""
	case len(parts) == 2 && parts[0] == "drives" && parts[1] != "":
		return EndpointDriveGet, parts[1]
	case len(parts) == 1 && parts[0] == "changes":
		return EndpointChanges, ""
	case len(parts) == 2 && parts[0] == "changes" && parts[1] == "startPageToken":
		return EndpointStartToken, ""
	}
	return EndpointOther, ""
}

// ServeHTTP serves the Drive v3 API paths under /drive/v3/.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	endpoint, id := route(r)
	e.stats.call(endpoint)
	if !e.faults.inject(w, r, endpoint, e.stats, func(w http.ResponseWriter) { e.dispatch(w, r, endpoint, id) }) {
		e.dispatch(w, r, endpoint, id)
	}
}

func (e *Emulator) dispatch(w http.ResponseWriter, r *http.Request, endpoint, id string) {
	q := r.URL.Query()
	switch endpoint {
	case EndpointList:
		e.serveList(w, q)
	case EndpointGet:
		e.serveGet(w, id, q)
	case EndpointDownload:
		e.serveDownload(w, r, id, q)
	case EndpointExport:
		e.serveExport(w, id, q)
	case EndpointAbout:
		e.serveAbout(w, q)
	case EndpointDrives:
		e.serveDrives(w, q)
	case EndpointDriveGet:
		e.serveDriveGet(w, id, q)
	case EndpointChanges:
		e.serveChanges(w, q)
	case EndpointStartToken:
		e.serveStartToken(w, q)
	default:
		writeError(w, &apiError{Code: 404, Domain: "global", Reason: "notFound",
			Message: "The emulator does not serve " + r.Method + " " + r.URL.Path})
	}
}

func boolParam(q map[string][]string, name string) bool {
	v := ""
	if vs := q[name]; len(vs) > 0 {
		v = vs[0]
	}
	return v == "true"
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, &apiError{Code: 500, Domain: "global", Reason: "backendError", Message: "Backend Error"})
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}

// selectFields applies the fields parameter to resource v, or the default
// fields when absent.
func selectFields(q map[string][]string, schema string, v map[string]any, def fieldMask) (any, *apiError) {
	fs := ""
	if vs := q["fields"]; len(vs) > 0 {
		fs = vs[0]
	}
	if fs == "" {
		return def.apply(v), nil
	}
	m, err := parseFields(fs)
	if err == nil {
		err = m.validate(schemas, schema)
	}
	if err != nil {
		return nil, &apiError{Code: 400, Domain: "global", Reason: "invalidParameter",
			Message: "Invalid field selection " + fs, LocationType: "parameter", Location: "fields", Detail: err.Error()}
	}
	return m.apply(v), nil
}

var defaultFileFields = fieldMask{"kind": nil, "id": nil, "name": nil, "mimeType": nil}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// fileJSON renders f as a Drive File resource with every field the emulator
// knows. Callers hold e.mu.
func (e *Emulator) fileJSON(f *File) map[string]any {
	m := map[string]any{
		"kind":              "drive#file",
		"id":                f.ID,
		"name":              f.Name,
		"mimeType":          f.MimeType,
		"starred":           f.Starred,
		"trashed":           e.trashedLocked(f),
		"explicitlyTrashed": f.Trashed,
		"createdTime":       fmtTime(f.CreatedTime),
		"modifiedTime":      fmtTime(f.ModifiedTime),
		"webViewLink":       webViewLink(f),
		"spaces":            []any{"drive"},
		"version":           "1",
		"viewedByMe":        false,
		"shared":            false,
		"capabilities": map[string]any{
			"canDownload":     !f.IsNative(),
			"canEdit":         false,
			"canListChildren": f.IsFolder(),
		},
	}
	if f.ID != e.rootID && len(f.Parents) > 0 && e.drives[f.ID] == nil {
		ps := make([]any, len(f.Parents))
		for i, p := range f.Parents {
			ps[i] = p
		}
		m["parents"] = ps
	}
	if f.Description != "" {
		m["description"] = f.Description
	}
	if f.DriveID != "" {
		m["driveId"] = f.DriveID
		m["teamDriveId"] = f.DriveID
	} else {
		m["ownedByMe"] = true
		m["owners"] = []any{map[string]any{"kind": "drive#user", "displayName": e.user.DisplayName,
			"emailAddress": e.user.EmailAddress, "me": true, "permissionId": e.user.PermissionID}}
	}
	if !f.IsNative() {
		m["size"] = strconv.Itoa(len(f.Content))
		m["quotaBytesUsed"] = strconv.Itoa(len(f.Content))
		m["md5Checksum"] = f.md5
		m["originalFilename"] = f.Name
		if ext := strings.TrimPrefix(path.Ext(f.Name), "."); ext != "" {
			m["fileExtension"] = ext
			m["fullFileExtension"] = ext
		}
		m["headRevisionId"] = "0B" + f.md5[:16]
		m["webContentLink"] = "https://drive.google.com/uc?id=" + f.ID + "&export=download"
	} else {
		m["quotaBytesUsed"] = "0"
		if links := exportLinks(f); len(links) > 0 {
			m["exportLinks"] = links
		}
	}
	if f.MimeType == MimeShortcut {
		sd := map[string]any{"targetId": f.ShortcutTargetID}
		if t, ok := e.files[f.ShortcutTargetID]; ok {
			sd["targetMimeType"] = t.MimeType
		}
		m["shortcutDetails"] = sd
	}
	if len(f.Properties) > 0 {
		m["properties"] = f.Properties
	}
	if len(f.AppProperties) > 0 {
		m["appProperties"] = f.AppProperties
	}
	return m
}

// exportFormats are the formats files.export accepts per native type (from
// the Drive export-formats reference). Only the text formats are produced.
var exportFormats = map[string][]string{
	MimeDoc: {"text/plain", "text/markdown", "text/html", "application/rtf", "application/pdf",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
		"application/vnd.oasis.opendocument.text", "application/zip", "application/epub+zip"},
	MimeSheet: {"text/csv", "text/tab-separated-values", "application/pdf",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		"application/x-vnd.oasis.opendocument.spreadsheet", "application/zip"},
	MimeSlides: {"text/plain", "application/pdf",
		"application/vnd.openxmlformats-officedocument.presentationml.presentation",
		"application/vnd.oasis.opendocument.presentation", "image/jpeg", "image/png", "image/svg+xml"},
	MimeDrawing: {"image/jpeg", "image/png", "image/svg+xml", "application/pdf"},
}

func exportLinks(f *File) map[string]any {
	out := map[string]any{}
	for _, mt := range exportFormats[f.MimeType] {
		out[mt] = "https://docs.google.com/feeds/download/export?id=" + f.ID + "&exportFormat=" + mt
	}
	return out
}

// export renders a native file's text in the requested format; ok is false
// for formats the emulator cannot produce (binary formats).
func export(f *File, mt string) (body []byte, ok bool) {
	switch {
	case mt == "text/plain" || mt == "text/markdown" || mt == "text/csv":
		return []byte(f.ExportText), true
	case mt == "text/html":
		var b strings.Builder
		b.WriteString("<html><head><meta content=\"text/html; charset=UTF-8\" http-equiv=\"content-type\"><title>")
		b.WriteString(html.EscapeString(f.Name))
		b.WriteString("</title></head><body>")
		for _, line := range strings.Split(f.ExportText, "\n") {
			b.WriteString("<p>" + html.EscapeString(line) + "</p>")
		}
		b.WriteString("</body></html>")
		return []byte(b.String()), true
	case mt == "text/tab-separated-values":
		recs, err := csv.NewReader(strings.NewReader(f.ExportText)).ReadAll()
		if err != nil {
			return []byte(f.ExportText), true
		}
		var b strings.Builder
		for _, r := range recs {
			b.WriteString(strings.Join(r, "\t") + "\n")
		}
		return []byte(b.String()), true
	}
	return nil, false
}

// listParams are the files.list parameters that shape the result set; the
// page token is bound to them.
type listParams struct {
	q, orderBy, corpora, driveID string
	allDrives                    bool
}

func (p listParams) fingerprint() string {
	s := sha256.Sum256([]byte(fmt.Sprintf("%q|%q|%q|%q|%v", p.q, p.orderBy, p.corpora, p.driveID, p.allDrives)))
	return hex.EncodeToString(s[:6])
}

// encodePageToken and decodePageToken make opaque, stable page tokens bound
// to the query that produced them.
func encodePageToken(p listParams, offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("emu1:" + strconv.Itoa(offset) + ":" + p.fingerprint()))
}

func decodePageToken(p listParams, tok string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return 0, false
	}
	parts := strings.Split(string(b), ":")
	if len(parts) != 3 || parts[0] != "emu1" || parts[2] != p.fingerprint() {
		return 0, false
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

func (e *Emulator) serveList(w http.ResponseWriter, q map[string][]string) {
	get := func(k string) string {
		if vs := q[k]; len(vs) > 0 {
			return vs[0]
		}
		return ""
	}
	p := listParams{q: get("q"), orderBy: get("orderBy"), corpora: get("corpora"), driveID: get("driveId")}
	allDrives := boolParam(q, "includeItemsFromAllDrives") || boolParam(q, "includeTeamDriveItems")
	supports := boolParam(q, "supportsAllDrives") || boolParam(q, "supportsTeamDrives")
	p.allDrives = allDrives && supports
	if p.corpora == "" {
		p.corpora = "user"
		if p.driveID != "" {
			p.corpora = "drive"
		}
	}
	switch p.corpora {
	case "user", "domain":
		if p.driveID != "" {
			writeError(w, errBadRequest("invalid", "The driveId parameter must be specified if and only if corpora is set to drive."))
			return
		}
	case "drive":
		if p.driveID == "" {
			writeError(w, errBadRequest("invalid", "The driveId parameter must be specified if and only if corpora is set to drive."))
			return
		}
		if !allDrives {
			writeError(w, errBadRequest("invalid", "The includeItemsFromAllDrives parameter must be set to true when corpora is set to drive."))
			return
		}
		if !supports {
			writeError(w, errBadRequest("invalid", "The supportsAllDrives parameter must be set to true when corpora is set to drive."))
			return
		}
	case "allDrives":
		if !allDrives {
			writeError(w, errBadRequest("invalid", "The includeItemsFromAllDrives parameter must be set to true when corpora is set to allDrives."))
			return
		}
	default:
		writeError(w, errInvalidParam("corpora", ""))
		return
	}
	query, err := ParseQuery(p.q)
	if err != nil {
		writeError(w, errInvalidQuery(err.Error()))
		return
	}
	if query.HasFullText && strings.TrimSpace(p.orderBy) != "" {
		writeError(w, errSortFullText)
		return
	}
	less, err := orderFunc(p.orderBy)
	if err != nil {
		writeError(w, errInvalidParam("orderBy", err.Error()))
		return
	}
	pageSize := 100
	if s := get("pageSize"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			writeError(w, errInvalidParam("pageSize", "Invalid value '"+s+"'. Values must be within the range: [1, 1000]"))
			return
		}
		pageSize = n
	}
	offset := 0
	if tok := get("pageToken"); tok != "" {
		n, ok := decodePageToken(p, tok)
		if !ok {
			writeError(w, errInvalidParam("pageToken", "Invalid Value"))
			return
		}
		offset = n
	}

	e.mu.RLock()
	defer e.mu.RUnlock()
	if pageSize > e.maxPage {
		pageSize = e.maxPage
	}
	if p.corpora == "drive" {
		if d, ok := e.drives[p.driveID]; !ok || d.Inaccessible {
			writeError(w, errDriveNotFound(p.driveID))
			return
		}
	}
	ctx := &evalCtx{e: e}
	var hits []*File
	for _, id := range e.order {
		f := e.files[id]
		if f == nil || !e.inCorpus(f, p) || !e.visibleLocked(f) {
			continue
		}
		if query.root != nil && !query.root.eval(ctx, f) {
			continue
		}
		hits = append(hits, f)
	}
	if less != nil {
		slices.SortStableFunc(hits, less)
	}
	if offset > len(hits) {
		offset = len(hits)
	}
	end := min(offset+pageSize, len(hits))
	files := make([]any, 0, end-offset)
	for _, f := range hits[offset:end] {
		files = append(files, e.fileJSON(f))
	}
	resp := map[string]any{"kind": "drive#fileList", "incompleteSearch": e.incomplete && p.corpora == "allDrives", "files": files}
	if end < len(hits) {
		resp["nextPageToken"] = encodePageToken(p, end)
	}
	out, aerr := selectFields(q, "FileList", resp, fieldMask{"kind": nil, "incompleteSearch": nil,
		"nextPageToken": nil, "files": defaultFileFields})
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}

// inCorpus applies corpora and the Shared drive flags. Callers hold e.mu.
func (e *Emulator) inCorpus(f *File, p listParams) bool {
	if f.ID == e.rootID || e.drives[f.ID] != nil {
		return false // roots are not listed
	}
	switch p.corpora {
	case "drive":
		return f.DriveID == p.driveID
	case "allDrives":
		return f.DriveID == "" || p.allDrives
	}
	return f.DriveID == "" || p.allDrives
}

// orderFunc parses orderBy into a comparison; nil means insertion order.
func orderFunc(orderBy string) (func(a, b *File) int, error) {
	if strings.TrimSpace(orderBy) == "" {
		return nil, nil
	}
	type key struct {
		name string
		desc bool
	}
	var keys []key
	for _, part := range strings.Split(orderBy, ",") {
		fs := strings.Fields(part)
		if len(fs) == 0 || len(fs) > 2 || (len(fs) == 2 && fs[1] != "desc" && fs[1] != "asc") {
			return nil, fmt.Errorf("bad orderBy key %q", part)
		}
		switch fs[0] {
		case "createdTime", "folder", "modifiedByMeTime", "modifiedTime", "name", "name_natural",
			"quotaBytesUsed", "recency", "sharedWithMeTime", "starred", "viewedByMeTime":
		default:
			return nil, fmt.Errorf("unknown orderBy key %q", fs[0])
		}
		keys = append(keys, key{fs[0], len(fs) == 2 && fs[1] == "desc"})
	}
	return func(a, b *File) int {
		for _, k := range keys {
			var c int
			switch k.name {
			case "createdTime":
				c = a.CreatedTime.Compare(b.CreatedTime)
			case "modifiedTime", "modifiedByMeTime", "recency", "viewedByMeTime", "sharedWithMeTime":
				c = a.ModifiedTime.Compare(b.ModifiedTime)
			case "folder":
				c = boolCmp(b.IsFolder(), a.IsFolder()) // folders first
			case "name", "name_natural":
				c = strings.Compare(normalize(a.Name), normalize(b.Name))
			case "quotaBytesUsed":
				c = len(a.Content) - len(b.Content)
			case "starred":
				c = boolCmp(b.Starred, a.Starred)
			}
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.ID, b.ID)
	}, nil
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// lookupLocked finds a visible file by ID ("root" allowed). Shared drive
// items need supportsAllDrives, as in Drive, except for files.export, which
// has no such parameter (q is nil then).
func (e *Emulator) lookupLocked(id string, q map[string][]string) (*File, *apiError) {
	f, ok := e.files[e.resolveLocked(id)]
	if !ok || !e.visibleLocked(f) {
		return nil, errNotFound(id)
	}
	if q != nil && f.DriveID != "" && !boolParam(q, "supportsAllDrives") && !boolParam(q, "supportsTeamDrives") {
		return nil, errNotFound(id)
	}
	return f, nil
}

func (e *Emulator) serveGet(w http.ResponseWriter, id string, q map[string][]string) {
	e.mu.RLock()
	f, aerr := e.lookupLocked(id, q)
	var res map[string]any
	if aerr == nil {
		res = e.fileJSON(f)
	}
	e.mu.RUnlock()
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	out, aerr := selectFields(q, "File", res, defaultFileFields)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}

func (e *Emulator) serveDownload(w http.ResponseWriter, r *http.Request, id string, q map[string][]string) {
	e.mu.RLock()
	f, aerr := e.lookupLocked(id, q)
	var content []byte
	var mt string
	var mod time.Time
	if aerr == nil {
		if f.IsNative() {
			aerr = errNotDownloadable
		}
		content, mt, mod = f.Content, f.MimeType, f.ModifiedTime
	}
	e.mu.RUnlock()
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	w.Header().Set("Content-Type", mt)
	http.ServeContent(w, r, "", mod, bytes.NewReader(content))
}

func (e *Emulator) serveExport(w http.ResponseWriter, id string, q map[string][]string) {
	mt := ""
	if vs := q["mimeType"]; len(vs) > 0 {
		mt = vs[0]
	}
	e.mu.RLock()
	f, aerr := e.lookupLocked(id, nil)
	var body []byte
	if aerr == nil {
		switch {
		case mt == "":
			aerr = &apiError{Code: 400, Domain: "global", Reason: "required", Message: "Required parameter: mimeType",
				LocationType: "parameter", Location: "mimeType"}
		case exportFormats[f.MimeType] == nil:
			aerr = errNotExportable
		case !slices.Contains(exportFormats[f.MimeType], mt):
			aerr = errBadRequest("badRequest", "The requested conversion is not supported.")
			aerr.LocationType, aerr.Location = "parameter", "convertTo"
		default:
			var ok bool
			body, ok = export(f, mt)
			size := int64(len(body))
			if f.ExportSize > 0 {
				size = f.ExportSize
			}
			switch {
			case size > e.expLimit:
				aerr = errExportTooLarge
			case !ok:
				aerr = &apiError{Code: 501, Domain: "global", Reason: "notImplemented",
					Message: "The emulator exports only text formats; " + mt + " is valid in Drive but not produced."}
			}
		}
	}
	e.mu.RUnlock()
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	ct := mt
	if strings.HasPrefix(mt, "text/") {
		ct += "; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

func (e *Emulator) serveAbout(w http.ResponseWriter, q map[string][]string) {
	if len(q["fields"]) == 0 || q["fields"][0] == "" {
		writeError(w, errFieldsRequired)
		return
	}
	e.mu.RLock()
	u := e.user
	e.mu.RUnlock()
	formats := map[string]any{}
	for src, dsts := range exportFormats {
		l := make([]any, len(dsts))
		for i, d := range dsts {
			l[i] = d
		}
		formats[src] = l
	}
	res := map[string]any{
		"kind": "drive#about",
		"user": map[string]any{"kind": "drive#user", "displayName": u.DisplayName, "emailAddress": u.EmailAddress,
			"me": true, "permissionId": u.PermissionID},
		"storageQuota":    map[string]any{"limit": "16106127360", "usage": "0"},
		"exportFormats":   formats,
		"canCreateDrives": true,
		"maxUploadSize":   "5242880000000",
		"appInstalled":    false,
	}
	out, aerr := selectFields(q, "About", res, nil)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}

func driveJSON(d *SharedDrive) map[string]any {
	return map[string]any{"kind": "drive#drive", "id": d.ID, "name": d.Name, "createdTime": fmtTime(d.CreatedTime),
		"hidden": false}
}

var defaultDriveFields = fieldMask{"kind": nil, "id": nil, "name": nil}

func (e *Emulator) serveDrives(w http.ResponseWriter, q map[string][]string) {
	e.mu.RLock()
	drives := []any{}
	for _, id := range e.dorder {
		if d := e.drives[id]; !d.Inaccessible {
			drives = append(drives, driveJSON(d))
		}
	}
	e.mu.RUnlock()
	res := map[string]any{"kind": "drive#driveList", "drives": drives}
	out, aerr := selectFields(q, "DriveList", res, fieldMask{"kind": nil, "nextPageToken": nil, "drives": defaultDriveFields})
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}

func (e *Emulator) serveDriveGet(w http.ResponseWriter, id string, q map[string][]string) {
	e.mu.RLock()
	d, ok := e.drives[id]
	var res map[string]any
	if ok && !d.Inaccessible {
		res = driveJSON(d)
	}
	e.mu.RUnlock()
	if res == nil {
		writeError(w, errDriveNotFound(id))
		return
	}
	out, aerr := selectFields(q, "Drive", res, defaultDriveFields)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}
