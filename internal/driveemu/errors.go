package driveemu

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// apiError is an error answer in Drive's JSON shape:
// {"error":{"code":403,"message":...,"errors":[{"domain":...,"reason":...,"message":...}]}}.
type apiError struct {
	Code         int
	Domain       string
	Reason       string
	Message      string
	Location     string
	LocationType string
	// RetryAfter, when set, is sent as the Retry-After header (seconds).
	RetryAfter int
	// Detail explains the error in the X-Driveemu-Detail header (Drive's
	// own message is terse, e.g. "Invalid Value").
	Detail string
}

type errorItem struct {
	Domain       string `json:"domain"`
	Reason       string `json:"reason"`
	Message      string `json:"message"`
	LocationType string `json:"locationType,omitempty"`
	Location     string `json:"location,omitempty"`
}

type errorBody struct {
	Error struct {
		Code    int         `json:"code"`
		Message string      `json:"message"`
		Errors  []errorItem `json:"errors"`
	} `json:"error"`
}

func (e *apiError) body() []byte {
	var b errorBody
	b.Error.Code = e.Code
	b.Error.Message = e.Message
	b.Error.Errors = []errorItem{{Domain: e.Domain, Reason: e.Reason, Message: e.Message,
		LocationType: e.LocationType, Location: e.Location}}
	out, _ := json.Marshal(b)
	return out
}

func writeError(w http.ResponseWriter, e *apiError) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if e.Detail != "" {
		h.Set("X-Driveemu-Detail", e.Detail)
	}
	w.WriteHeader(e.Code)
	_, _ = w.Write(e.body())
}

func errNotFound(id string) *apiError {
	return &apiError{Code: 404, Domain: "global", Reason: "notFound", Message: "File not found: " + id + ".",
		LocationType: "parameter", Location: "fileId"}
}

func errDriveNotFound(id string) *apiError {
	return &apiError{Code: 404, Domain: "global", Reason: "notFound", Message: "Shared drive not found: " + id,
		LocationType: "parameter", Location: "driveId"}
}

func errInvalidQuery(msg string) *apiError {
	return &apiError{Code: 400, Domain: "global", Reason: "invalidQuery", Message: "Invalid Value",
		LocationType: "parameter", Location: "q", Detail: msg}
}

func errInvalidParam(name, msg string) *apiError {
	if msg == "" {
		msg = "Invalid Value"
	}
	return &apiError{Code: 400, Domain: "global", Reason: "invalid", Message: msg,
		LocationType: "parameter", Location: name}
}

func errBadRequest(reason, msg string) *apiError {
	return &apiError{Code: 400, Domain: "global", Reason: reason, Message: msg}
}

var (
	errSortFullText = &apiError{Code: 403, Domain: "global", Reason: "fieldNotSortable",
		Message: "Sorting is not supported for queries with fullText terms. Results are always in descending relevance order."}
	errNotDownloadable = &apiError{Code: 403, Domain: "global", Reason: "fileNotDownloadable",
		Message:      "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
		LocationType: "parameter", Location: "alt"}
	errNotExportable = &apiError{Code: 403, Domain: "global", Reason: "fileNotExportable",
		Message: "Export only supports Docs Editors files."}
	errExportTooLarge = &apiError{Code: 403, Domain: "global", Reason: "exportSizeLimitExceeded",
		Message: "This file is too large to be exported."}
	errFieldsRequired = &apiError{Code: 400, Domain: "global", Reason: "required",
		Message: "The 'fields' parameter is required for this method.", LocationType: "parameter", Location: "fields"}
)
