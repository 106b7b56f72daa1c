package drive

import (
	"slices"
	"strings"
)

// ExportMimeType returns the text format a Google-native file is exported
// as (Docs and Slides as text/plain, Sheets as text/csv), or "" for a type
// that is downloaded as is or not exportable.
func ExportMimeType(mimeType string) string {
	switch mimeType {
	case MimeDoc, MimeSlides:
		return "text/plain"
	case MimeSheet:
		return "text/csv"
	}
	return ""
}

// refusedPrefixes and refusedTypes are MIME types never worth downloading:
// media, fonts, archives and executables have no searchable text.
var (
	refusedPrefixes = []string{"image/", "video/", "audio/", "font/"}
	refusedTypes    = []string{
		"application/zip", "application/x-zip-compressed", "application/x-7z-compressed", "application/vnd.rar",
		"application/x-rar-compressed", "application/gzip", "application/x-gzip", "application/x-tar", "application/x-bzip2",
		"application/x-xz", "application/java-archive", "application/x-msdownload", "application/x-executable",
		"application/x-mach-binary", "application/x-apple-diskimage", "application/x-iso9660-image", "application/vnd.android.package-archive",
	}
)

// ScanImage reports whether mimeType is an image OCR reads (package ocr):
// a photo or scan of a page worth downloading when an OCR reader is there.
func ScanImage(mimeType string) bool {
	switch mimeType {
	case "image/png", "image/jpeg", "image/tiff", "image/webp", "image/gif", "image/bmp":
		return true
	}
	return false
}

// IsNative reports whether mimeType is a Google-native type
// (application/vnd.google-apps.*): Docs, Sheets, Slides, Forms, Drawings...
func IsNative(mimeType string) bool { return strings.HasPrefix(mimeType, googleApps) }

// Refused reports whether files of mimeType are skipped without a download.
func Refused(mimeType string) bool {
	if strings.HasPrefix(mimeType, googleApps) {
		return ExportMimeType(mimeType) == ""
	}
	for _, p := range refusedPrefixes {
		if strings.HasPrefix(mimeType, p) {
			return true
		}
	}
	return slices.Contains(refusedTypes, mimeType)
}
