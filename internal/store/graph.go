package store

import (
	"context"
	"time"
)

// The graph records of GraphRAG (gds graph build, internal/graph). Chunks
// are named by their chunk ID "fileID#ordinal" (ChunkID).

// GraphExtraction is what the AI provider extracted from one chunk: the
// unit a graph build commits, so that a killed build resumes where it
// stopped and a rebuild extracts only chunks whose text changed.
type GraphExtraction struct {
	FileID   string
	Ordinal  int
	TextHash string // hash of the chunk's text when it was extracted
	Data     []byte // the extraction (JSON, internal/graph's format)
}

// GraphEntity is one merged entity.
type GraphEntity struct {
	ID          string
	Name        string
	Type        string
	Description string
	ChunkIDs    []string // chunks it was extracted from, sorted
	Degree      int
	Embedding   []float32 // of name and description; nil when not embedded
}

// GraphRelationship is one merged relationship (undirected: Source < Target
// by ID).
type GraphRelationship struct {
	ID          string
	Source      string // entity ID
	Target      string // entity ID
	Description string
	Weight      float64
	ChunkIDs    []string
}

// GraphCommunity is one community of the hierarchy. Level 0 is the
// coarsest; a community's children are at Level+1. Weight is the number of
// distinct chunks its entities come from (GraphRAG's occurrence weight
// before normalisation). Signature identifies its content: a report is
// reused while the signature is unchanged.
type GraphCommunity struct {
	ID              string
	Level           int
	Parent          string // "" at level 0
	EntityIDs       []string
	RelationshipIDs []string
	Weight          int
	Signature       string
}

// GraphReport is a community report, keyed by the community's signature.
type GraphReport struct {
	Signature string
	Data      []byte // the report (JSON, internal/graph's format)
}

// Graph is the merged graph a build writes at once.
type Graph struct {
	Entities      []GraphEntity
	Relationships []GraphRelationship
	Communities   []GraphCommunity
	BuiltAt       time.Time
	Provider      string // the AI provider that built it
	Folder        string // the folder it covers ("" for the whole index)
}

// GraphStore keeps the graph beside the index. Both back ends implement
// it (storetest.RunGraph is its contract).
type GraphStore interface {
	// GraphTextHashes returns chunk ID → text hash of every stored extraction.
	GraphTextHashes(ctx context.Context) (map[string]string, error)
	// PutGraphExtraction inserts or replaces one chunk's extraction.
	PutGraphExtraction(ctx context.Context, e GraphExtraction) error
	// DeleteGraphExtractions removes the extractions of these chunk IDs.
	DeleteGraphExtractions(ctx context.Context, chunkIDs []string) error
	// GraphExtractions returns the stored extractions of these chunk IDs
	// (nil: all), ordered by file ID then ordinal.
	GraphExtractions(ctx context.Context, chunkIDs []string) ([]GraphExtraction, error)
	// GraphReports returns the stored reports of these signatures (nil: all).
	GraphReports(ctx context.Context, signatures []string) (map[string]GraphReport, error)
	// PutGraphReport inserts or replaces a report.
	PutGraphReport(ctx context.Context, r GraphReport) error
	// ReplaceGraph replaces the entities, relationships and communities at
	// once and removes the reports no community's signature names.
	ReplaceGraph(ctx context.Context, g Graph) error
	// LoadGraph returns the stored graph; a zero BuiltAt when none was built.
	LoadGraph(ctx context.Context) (Graph, error)
	// ResetGraph removes every graph record (gds graph build --full).
	ResetGraph(ctx context.Context) error
}
