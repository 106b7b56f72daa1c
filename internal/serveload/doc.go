// Package serveload is a bounded load generator for `gds serve`: for a
// fixed time, N clients each ask questions through POST /api/v1/chat/stream
// (reading the server-sent events to the done frame) and M clients each
// search through POST /api/v1/search, one request after another. It
// reports requests per second and latency percentiles per kind (and the time
// to the first SSE frame of a chat), and counts error responses and dropped
// or incomplete streams; a run passes only when both are zero.
//
// It only talks to loopback addresses: CheckTarget refuses any other host,
// so it cannot be pointed at someone else's server.
package serveload
