package drive

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	drivev3 "google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"
)

// Item is the metadata of one Drive item as files.get or the changes feed
// report it: a File (Path left empty) with what decides how a crawl treats
// it.
type Item struct {
	File
	Folder  bool
	Trashed bool
	// ShortcutTargetID and ShortcutTargetMime are set for a shortcut.
	ShortcutTargetID   string
	ShortcutTargetMime string
}

// Change is one entry of the changes feed.
type Change struct {
	FileID string
	// Removed is set when the item was deleted for good or the user lost
	// access to it; Item is then empty.
	Removed bool
	Item    Item
}

// ErrPageTokenInvalid means Drive refused a stored changes page token (400
// on changes.list): the changes since it cannot be read, and the caller
// must list everything again.
var ErrPageTokenInvalid = errors.New("drive refused the stored changes page token")

// ErrNotFound means files.get found no item with that ID the user can see.
var ErrNotFound = errors.New("not found")

// changeFields are the fields a crawl needs from changes.list.
const changeFields = "nextPageToken,newStartPageToken,changes(fileId,removed,changeType,file(" + fileFields + "))"

// StartPageToken returns the changes feed's current start page token
// (changes.getStartPageToken, across My Drive and Shared drives): the
// changes made after this call are listed from it. Take it before a full
// listing, so that nothing changed during the listing is missed.
func (c *Client) StartPageToken(ctx context.Context) (string, error) {
	var tok string
	err := c.retry.doMeta(ctx, "get changes start page token", func(ctx context.Context) error {
		res, err := c.svc.Changes.GetStartPageToken().SupportsAllDrives(true).Context(ctx).Do()
		if err == nil {
			tok = res.StartPageToken
		}
		return err
	})
	return tok, err
}

// Changes reads the changes feed from token (changes.list with removed
// entries, My Drive and Shared drives, every page), calling fn per change
// in feed order, and returns the new start page token for the next call.
// A token Drive refuses gives an error wrapping ErrPageTokenInvalid.
func (c *Client) Changes(ctx context.Context, token string, fn func(Change) error) (string, error) {
	for {
		var res *drivev3.ChangeList
		err := c.retry.doMeta(ctx, "list changes", func(ctx context.Context) error {
			var err error
			res, err = c.svc.Changes.List(token).PageSize(1000).IncludeRemoved(true).
				IncludeItemsFromAllDrives(true).SupportsAllDrives(true).Spaces("drive").
				Fields(changeFields).Context(ctx).Do()
			return err
		})
		var gerr *googleapi.Error
		if errors.As(err, &gerr) && (gerr.Code == http.StatusBadRequest || gerr.Code == http.StatusGone ||
			gerr.Code == http.StatusNotFound) {
			return "", fmt.Errorf("%w: %w", ErrPageTokenInvalid, err)
		}
		if err != nil {
			return "", err
		}
		for _, ch := range res.Changes {
			if ch.ChangeType != "" && ch.ChangeType != "file" {
				continue // a Shared drive itself changed
			}
			out := Change{FileID: ch.FileId, Removed: ch.Removed || ch.File == nil}
			if !out.Removed {
				out.Item = itemOf(ch.File)
			}
			if err := fn(out); err != nil {
				return "", err
			}
		}
		switch {
		case res.NewStartPageToken != "":
			return res.NewStartPageToken, nil
		case res.NextPageToken == "":
			return "", fmt.Errorf("list changes: a page with neither nextPageToken nor newStartPageToken")
		}
		token = res.NextPageToken
	}
}

// Get returns the metadata of one item (files.get with Shared drive
// support); an item missing or invisible to the user gives an error
// wrapping ErrNotFound.
func (c *Client) Get(ctx context.Context, id string) (Item, error) {
	var f *drivev3.File
	err := c.retry.doMeta(ctx, "get "+id, func(ctx context.Context) error {
		var err error
		f, err = c.svc.Files.Get(id).SupportsAllDrives(true).Fields(fileFields).Context(ctx).Do()
		return err
	})
	var gerr *googleapi.Error
	if errors.As(err, &gerr) && (gerr.Code == http.StatusNotFound || gerr.Code == http.StatusForbidden) {
		return Item{}, fmt.Errorf("get %s: %w (%w)", id, ErrNotFound, err)
	}
	if err != nil {
		return Item{}, err
	}
	return itemOf(f), nil
}

func itemOf(f *drivev3.File) Item {
	it := Item{File: fileOf(f, ""), Folder: f.MimeType == FolderMimeType, Trashed: f.Trashed}
	if f.ShortcutDetails != nil {
		it.ShortcutTargetID = f.ShortcutDetails.TargetId
		it.ShortcutTargetMime = f.ShortcutDetails.TargetMimeType
	}
	return it
}
