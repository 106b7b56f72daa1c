package driveemu

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Endpoint names of the changes feed.
const (
	EndpointChanges    = "changes.list"
	EndpointStartToken = "changes.getStartPageToken"
)

// changeLog is the emulated changes feed. Every mutation of the model
// (create, content or name update, move, trash, loss of access, delete)
// appends a record; record i is at page token i+1. As in Drive, changes.list
// reports each file once per listing, at its latest change, with the file's
// current state: a file that was created and then renamed appears once,
// renamed.
type changeLog struct {
	recs []changeRec
	// last maps a file ID to the index of its latest record.
	last map[string]int
	// min is the oldest token still accepted (ExpireChanges).
	min int
}

type changeRec struct {
	fileID  string
	driveID string // the file's Shared drive when the change was made
	time    time.Time
}

// recordLocked appends a change of f. Callers hold e.mu.
func (e *Emulator) recordLocked(f *File) {
	if f == nil || f.ID == e.rootID || e.drives[f.ID] != nil {
		return
	}
	e.recordRemovedLocked(f.ID, f.DriveID)
}

// recordRemovedLocked appends a change of the file id (present or not).
// Callers hold e.mu.
func (e *Emulator) recordRemovedLocked(id, driveID string) {
	l := &e.log
	if l.last == nil {
		l.last = map[string]int{}
		l.min = 1
	}
	// The change time is deterministic: one second per change after the
	// emulator's base time (Drive's is the server's clock).
	l.recs = append(l.recs, changeRec{fileID: id, driveID: driveID,
		time: e.base.Add(time.Duration(len(l.recs)+1) * time.Second)})
	l.last[id] = len(l.recs) - 1
}

// descendantsLocked returns the IDs of every file under the folder id, in
// insertion order. Callers hold e.mu.
func (e *Emulator) descendantsLocked(id string) []string {
	var out []string
	for _, fid := range e.order {
		f := e.files[fid]
		if f == nil || fid == id {
			continue
		}
		if e.underLocked(f, id, 0) {
			out = append(out, fid)
		}
	}
	return out
}

func (e *Emulator) underLocked(f *File, ancestor string, depth int) bool {
	if depth > 64 {
		return false
	}
	for _, p := range f.Parents {
		if p == ancestor {
			return true
		}
		if pf, ok := e.files[p]; ok && e.underLocked(pf, ancestor, depth+1) {
			return true
		}
	}
	return false
}

// StartPageToken returns the token changes.getStartPageToken would answer
// now: changes made after this call are listed from it.
func (e *Emulator) StartPageToken() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return strconv.Itoa(len(e.log.recs) + 1)
}

// ExpireChanges makes every page token issued so far invalid (changes.list
// answers 400 invalid for them), as a token Drive no longer accepts would
// be; a client must then start over from a full listing.
func (e *Emulator) ExpireChanges() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.log.last == nil {
		e.log.last = map[string]int{}
	}
	e.log.min = len(e.log.recs) + 1
}

// ChangeCount returns the number of changes recorded so far.
func (e *Emulator) ChangeCount() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.log.recs)
}

func (e *Emulator) serveStartToken(w http.ResponseWriter, q map[string][]string) {
	driveID := firstParam(q, "driveId")
	if driveID == "" {
		driveID = firstParam(q, "teamDriveId")
	}
	supports := boolParam(q, "supportsAllDrives") || boolParam(q, "supportsTeamDrives")
	e.mu.RLock()
	var aerr *apiError
	if driveID != "" {
		if !supports {
			aerr = errBadRequest("invalid", "The supportsAllDrives parameter must be set to true when driveId is set.")
		} else if d, ok := e.drives[driveID]; !ok || d.Inaccessible {
			aerr = errDriveNotFound(driveID)
		}
	}
	tok := strconv.Itoa(len(e.log.recs) + 1)
	e.mu.RUnlock()
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	res := map[string]any{"kind": "drive#startPageToken", "startPageToken": tok}
	out, aerr := selectFields(q, "StartPageToken", res, nil)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}

func firstParam(q map[string][]string, k string) string {
	if vs := q[k]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// boolParamDefault is boolParam with a default for an absent parameter.
func boolParamDefault(q map[string][]string, name string, def bool) bool {
	vs := q[name]
	if len(vs) == 0 || vs[0] == "" {
		return def
	}
	return vs[0] == "true"
}

var defaultChangeFields = fieldMask{"kind": nil, "changeType": nil, "time": nil, "removed": nil,
	"fileId": nil, "driveId": nil, "file": defaultFileFields}

func (e *Emulator) serveChanges(w http.ResponseWriter, q map[string][]string) {
	tokStr := firstParam(q, "pageToken")
	if tokStr == "" {
		writeError(w, &apiError{Code: 400, Domain: "global", Reason: "required", Message: "Required parameter: pageToken",
			LocationType: "parameter", Location: "pageToken"})
		return
	}
	pageSize := 100
	if s := firstParam(q, "pageSize"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, errInvalidParam("pageSize", "Invalid value '"+s+"'. Values must be within the range: [1, 1000]"))
			return
		}
		pageSize = n
	}
	driveID := firstParam(q, "driveId")
	if driveID == "" {
		driveID = firstParam(q, "teamDriveId")
	}
	supports := boolParam(q, "supportsAllDrives") || boolParam(q, "supportsTeamDrives")
	allDrives := (boolParam(q, "includeItemsFromAllDrives") || boolParam(q, "includeTeamDriveItems")) && supports
	includeRemoved := boolParamDefault(q, "includeRemoved", true)
	myDriveOnly := boolParam(q, "restrictToMyDrive")
	driveSpace := true
	if s := firstParam(q, "spaces"); s != "" {
		driveSpace = false
		for _, sp := range strings.Split(s, ",") {
			switch strings.TrimSpace(sp) {
			case "drive":
				driveSpace = true
			case "appDataFolder", "photos":
			default:
				writeError(w, errInvalidParam("spaces", ""))
				return
			}
		}
	}
	if driveID != "" && !supports {
		writeError(w, errBadRequest("invalid", "The supportsAllDrives parameter must be set to true when driveId is set."))
		return
	}

	e.mu.RLock()
	defer e.mu.RUnlock()
	l := &e.log
	end := len(l.recs) + 1 // the token of the next change
	tok, err := strconv.Atoi(tokStr)
	minTok := max(l.min, 1)
	if err != nil || tok < minTok || tok > end {
		writeError(w, errInvalidParam("pageToken", ""))
		return
	}
	if driveID != "" {
		if d, ok := e.drives[driveID]; !ok || d.Inaccessible {
			writeError(w, errDriveNotFound(driveID))
			return
		}
	}
	changes := []any{}
	i := tok - 1
	for ; i < len(l.recs) && len(changes) < pageSize; i++ {
		rec := l.recs[i]
		if l.last[rec.fileID] != i || !driveSpace {
			continue // a later change of the same file is reported instead
		}
		f := e.files[rec.fileID]
		visible := f != nil && e.visibleLocked(f)
		fileDrive := rec.driveID
		if visible {
			fileDrive = f.DriveID
		}
		switch {
		case driveID != "" && fileDrive != driveID:
			continue
		case driveID == "" && fileDrive != "" && (!allDrives || myDriveOnly):
			continue
		case !visible && !includeRemoved:
			continue
		}
		c := map[string]any{"kind": "drive#change", "changeType": "file", "type": "file",
			"fileId": rec.fileID, "removed": !visible, "time": fmtTime(rec.time)}
		if fileDrive != "" {
			c["driveId"] = fileDrive
			c["teamDriveId"] = fileDrive
		}
		if visible {
			c["file"] = e.fileJSON(f)
		}
		changes = append(changes, c)
	}
	res := map[string]any{"kind": "drive#changeList", "changes": changes}
	if i < len(l.recs) {
		res["nextPageToken"] = strconv.Itoa(i + 1)
	} else {
		res["newStartPageToken"] = strconv.Itoa(end)
	}
	out, aerr := selectFields(q, "ChangeList", res, fieldMask{"kind": nil, "nextPageToken": nil,
		"newStartPageToken": nil, "changes": defaultChangeFields})
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}
