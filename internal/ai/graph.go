package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// The GraphRAG tasks (gds graph build / gds graph query, internal/graph).
const (
	TaskGraphExtract Task = "graph_extract" // Input: GraphExtractInput → GraphExtraction
	TaskGraphReport  Task = "graph_report"  // Input: GraphReportInput → GraphReport
	TaskGraphMap     Task = "graph_map"     // Input: GraphMapInput → GraphMapResult (parsed by the caller)
	TaskGraphDrift   Task = "graph_drift"   // Input: GraphDriftInput → GraphDriftResult
	TaskGraphAnswer  Task = "graph_answer"  // Input: GraphAnswerInput → streamed text
)

// GraphExtractInput is the input of TaskGraphExtract: one chunk of text.
// With Previous set, the call is the gleaning pass: the model adds the
// entities and relationships the first pass missed, and returns only those.
type GraphExtractInput struct {
	Text        string           `json:"text"`
	EntityTypes []string         `json:"entity_types"`
	Lang        string           `json:"lang"`
	Previous    *GraphExtraction `json:"previous,omitempty"`
}

// GraphEntity is one extracted entity.
type GraphEntity struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// GraphRelationship is one extracted relationship; Strength is 1–10.
type GraphRelationship struct {
	Source      string  `json:"source"`
	Target      string  `json:"target"`
	Description string  `json:"description"`
	Strength    float64 `json:"strength"`
}

// GraphExtraction is the output of TaskGraphExtract.
type GraphExtraction struct {
	Entities      []GraphEntity       `json:"entities"`
	Relationships []GraphRelationship `json:"relationships"`
}

// GraphReportInput is the input of TaskGraphReport: a community's entities
// and relationships as CSV-like tables (built under a token budget).
type GraphReportInput struct {
	Context string `json:"context"`
	Lang    string `json:"lang"`
	// Entities are the community's entity names, most connected first, and
	// Descriptions their descriptions in the same order (the offline
	// provider writes its extract from them; not sent to a model).
	Entities     []string `json:"-"`
	Descriptions []string `json:"-"`
	Relations    int      `json:"-"` // the community's relationships
}

// GraphFinding is one finding of a community report.
type GraphFinding struct {
	Summary     string `json:"summary"`
	Explanation string `json:"explanation"`
}

// GraphReport is the output of TaskGraphReport (GraphRAG's community
// report; Rating 0–10 is stored as the report's rank).
type GraphReport struct {
	Title             string         `json:"title"`
	Summary           string         `json:"summary"`
	Rating            float64        `json:"rating"`
	RatingExplanation string         `json:"rating_explanation"`
	Findings          []GraphFinding `json:"findings"`
}

// GraphMapInput is the input of TaskGraphMap: one batch of community
// reports as a table "id|title|occurrence weight|content|rank".
type GraphMapInput struct {
	Question string `json:"question"`
	Context  string `json:"context"`
	Lang     string `json:"lang"`
	// Reports are the batch's reports as text, in table order: the offline
	// provider reads them instead of the table (not sent to a model).
	Reports []GraphReportText `json:"-"`
}

// GraphReportText is one community report as text.
type GraphReportText struct {
	ID       string
	Title    string
	Summary  string
	Findings []string // the findings' explanations
	Rank     float64  // 0–10
	Weight   float64  // occurrence weight, 0–1 when normalised
	Source   string   // the document most of its entities come from
}

// GraphPassage is a text a graph answer may quote: a source chunk, a
// report's text, an entity's description or an intermediate answer. Group
// names what it comes from (a community, an entity, a chunk, a DRIFT
// step): an extract covers distinct groups before it repeats one. Score
// orders passages of equal relevance (higher first).
type GraphPassage struct {
	Text  string
	Group string
	Score float64
	// Source is the document the passage mostly comes from, when known:
	// an overview covers distinct documents before distinct groups.
	Source string
}

// GraphPoint is one key point of a map answer.
type GraphPoint struct {
	Description string  `json:"description"`
	Score       float64 `json:"score"`
}

// GraphMapResult is the output of TaskGraphMap.
type GraphMapResult struct {
	Points []GraphPoint `json:"points"`
}

// GraphDriftInput is the input of TaskGraphDrift: one DRIFT step (the
// primer over a fold of reports, or a local search for a follow-up).
type GraphDriftInput struct {
	Question string `json:"question"` // the user's question
	Query    string `json:"query"`    // this step's query (the question or a follow-up)
	Context  string `json:"context"`
	Lang     string `json:"lang"`
	// Entities are entity names in the context (the offline provider
	// draws its follow-up questions from them).
	Entities []string `json:"entities"`
	// Passages are the context's texts without the tables' IDs and
	// markup: the offline provider answers from them (not sent to a
	// model).
	Passages []GraphPassage `json:"-"`
}

// GraphDriftResult is the output of TaskGraphDrift.
type GraphDriftResult struct {
	Response        string   `json:"response"`
	Score           float64  `json:"score"` // 0–100
	FollowUpQueries []string `json:"follow_up_queries"`
}

// Modes of TaskGraphAnswer.
const (
	GraphModeGlobal = "global" // the reduce step over analysts' points
	GraphModeLocal  = "local"
	GraphModeDrift  = "drift" // the final reduce over intermediate answers
)

// GraphAnswerInput is the input of TaskGraphAnswer.
type GraphAnswerInput struct {
	Mode         string `json:"mode"`
	Question     string `json:"question"`
	Context      string `json:"context"`
	ResponseType string `json:"response_type"`
	Lang         string `json:"lang"`
	// Passages are the context's texts without the tables' IDs, scores
	// and markup (the analysts' points, the local context's texts, the
	// intermediate answers): the offline provider's extract quotes them
	// (not sent to a model).
	Passages []GraphPassage `json:"-"`
}

// Schemas of the graph tasks, built on first use (nothing at package
// initialisation).
var (
	SchemaGraphExtraction = sync.OnceValue(func() *Schema {
		return &Schema{Name: "graph_extraction", Schema: object(map[string]any{
			"entities": map[string]any{"type": "array", "items": object(map[string]any{
				"name": str(), "type": str(), "description": str()})},
			"relationships": map[string]any{"type": "array", "items": object(map[string]any{
				"source": str(), "target": str(), "description": str(), "strength": map[string]any{"type": "number"}})},
		})}
	})
	SchemaGraphReport = sync.OnceValue(func() *Schema {
		return &Schema{Name: "graph_report", Schema: object(map[string]any{
			"title": str(), "summary": str(), "rating": map[string]any{"type": "number"}, "rating_explanation": str(),
			"findings": map[string]any{"type": "array", "items": object(map[string]any{"summary": str(), "explanation": str()})},
		})}
	})
	SchemaGraphMap = sync.OnceValue(func() *Schema {
		return &Schema{Name: "graph_map", Schema: object(map[string]any{
			"points": map[string]any{"type": "array", "items": object(map[string]any{
				"description": str(), "score": map[string]any{"type": "number"}})},
		})}
	})
	SchemaGraphDrift = sync.OnceValue(func() *Schema {
		return &Schema{Name: "graph_drift", Schema: object(map[string]any{
			"response": str(), "score": map[string]any{"type": "number"}, "follow_up_queries": strArr(),
		})}
	})
)

// Prompts of the graph tasks (written for gds after GraphRAG's published
// method; not copied from its prompt files).
const (
	PromptGraphExtract = `You build a knowledge graph from one passage of a document. Find the named entities
(people, organisations, places, events, products, concepts central to the passage) of the given types. For
each: its name as written in the passage, its type, and a one- or two-sentence description from the passage.
Then find the relationships between those entities that the passage states or clearly implies: source and
target (entity names exactly as above), a one-sentence description, and a strength from 1 (weak) to 10
(strong). Write descriptions in the language of the passage. When "previous" is given, many entities were
missed in that earlier pass: return only the additional entities and relationships, none already listed.`

	PromptGraphReport = `You write a report on one community of a knowledge graph: the entities and
relationships below. Return a short specific title naming key entities; an executive summary of the
community's structure and what it is about; a rating from 0 to 10 of its importance for understanding the
document collection, with a one-sentence explanation; and 5 to 10 findings, each a short summary and a
paragraph of explanation grounded in the data. Use only the data. Write in the language of lang.`

	PromptGraphMap = `You are one analyst answering a question from a table of community reports about a
document collection. Return the key points that help answer the question, each with a description and an
importance score from 0 to 100 (0: does not help). End each description with the reports it rests on as
[Data: Reports (id, id, ...)], at most 5 ids, then "+more" if there are more. If the table does not help,
return one point with score 0. Keep the whole answer under 1,000 words. Do not invent facts.`

	PromptGraphReduce = `Several analysts answered the question from different parts of a document
collection; their key points are below, most important first. Write the answer in the requested response
type and in the language of lang, merging the points, removing repetition, keeping the [Data: Reports (...)]
references of what you use. Leave out what is not supported by the points. At most 2,000 words.`

	PromptGraphLocal = `Answer the question from the data tables below (entities, relationships, source
passages and community reports about a document collection), in the requested response type and in the
language of lang. Support statements with [Data: Entities (ids)] or [Data: Sources (ids)] references. If the
data does not contain the answer, say so.`

	PromptGraphDrift = `Answer the query from the data below about a document collection, as part of a
larger investigation of the user's question. Return your intermediate answer, a score from 0 to 100 of how
well it answers the user's question, and up to 3 follow-up queries that would help answer it further.`

	PromptGraphDriftReduce = `Several intermediate answers to the question were found while exploring a
document collection; they are below. Write the final answer in the requested response type and in the
language of lang, merging them and keeping their references. Leave out what they do not support.`
)

// ExtractGraph runs TaskGraphExtract (with in.Previous set: the gleaning pass).
func ExtractGraph(ctx context.Context, p Provider, in GraphExtractInput) (GraphExtraction, error) {
	return structured[GraphExtraction](ctx, p, TaskGraphExtract, PromptGraphExtract, SchemaGraphExtraction(), in)
}

// WriteGraphReport runs TaskGraphReport.
func WriteGraphReport(ctx context.Context, p Provider, in GraphReportInput) (GraphReport, error) {
	return structured[GraphReport](ctx, p, TaskGraphReport, PromptGraphReport, SchemaGraphReport(), in)
}

// GraphMapRaw runs TaskGraphMap and returns the model's document unparsed:
// the caller parses it and turns a malformed one into a zero-score point,
// as GraphRAG does.
func GraphMapRaw(ctx context.Context, p Provider, in GraphMapInput) (json.RawMessage, error) {
	user, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("%s: encode input: %w", TaskGraphMap, err)
	}
	raw, err := p.Structured(ctx, Request{Task: TaskGraphMap, System: PromptGraphMap, Schema: SchemaGraphMap(), Input: in,
		Messages: []Message{{Role: RoleUser, Content: string(user)}}})
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", TaskGraphMap, p.Name(), err)
	}
	return raw, nil
}

// GraphDrift runs one DRIFT step.
func GraphDrift(ctx context.Context, p Provider, in GraphDriftInput) (GraphDriftResult, error) {
	return structured[GraphDriftResult](ctx, p, TaskGraphDrift, PromptGraphDrift, SchemaGraphDrift(), in)
}

// GraphAnswerRequest is the streamed request of TaskGraphAnswer for in.Mode.
func GraphAnswerRequest(in GraphAnswerInput) (Request, error) {
	system := PromptGraphLocal
	switch in.Mode {
	case GraphModeGlobal:
		system = PromptGraphReduce
	case GraphModeDrift:
		system = PromptGraphDriftReduce
	}
	user, err := json.Marshal(in)
	if err != nil {
		return Request{}, fmt.Errorf("%s: encode input: %w", TaskGraphAnswer, err)
	}
	return Request{Task: TaskGraphAnswer, System: system, Input: in,
		Messages: []Message{{Role: RoleUser, Content: string(user)}}}, nil
}
