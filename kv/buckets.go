package kv

// Bucket names. They are part of the file format: never rename one; retire
// it and add another.
var (
	BucketMeta         = []byte("meta")
	BucketThreads      = []byte("threads")         // thread name → Thread
	BucketMessages     = []byte("messages")        // msg id → Message (L5, append-only)
	BucketReceipts     = []byte("receipts")        // receipt id → TurnRef
	BucketBlocks       = []byte("blocks")          // block id → Block
	BucketThreadBlocks = []byte("thread_blocks")   // thread name 0x00 seq → block id
	BucketThreadSpans  = []byte("thread_spans")    // thread name 0x00 last msg id → span: a sealed block's id and message ids (format 4)
	BucketEvents       = []byte("events")          // event id → events.Card
	BucketEventRank    = []byte("events.rank")     // event id → the fields search ranks by (derived from events)
	BucketBlockEvents  = []byte("block_events")    // block id → ids of the cards extracted from it (written once)
	BucketUseReceipts  = []byte("use.receipts")    // receipt id → the Use it recorded
	BucketAssessments  = []byte("assessments")     // assessment id → a sufficient gate assessment (what a Use may adopt)
	BucketGraphNodes   = []byte("graph.nodes")     // node id → graph.Node
	BucketGraphEdges   = []byte("graph.edges")     // edge id → graph.Edge
	BucketGraphFacts   = []byte("graph.facts")     // fact id → graph.Fact
	BucketGraphNames   = []byte("graph.names")     // scope 0x00 kind 0x00 normalised name or alias → node id
	BucketGraphLinks   = []byte("graph.links")     // node id ‖ 'f'|'o'|'i' ‖ fact/edge id → empty (facts, out- and in-edges)
	BucketGraphBatches = []byte("graph.projected") // block id → projection record (written once)
	BucketJobs         = []byte("jobs")            // job id → wal.Job
	BucketJobQueue     = []byte("jobs.queue")      // job id → empty, for pending and running jobs only
	BucketUse          = []byte("use")
	BucketRetrievals   = []byte("retrievals")
	BucketImports      = []byte("imports")       // batch id → import record (preview, decisions, what commit applied)
	BucketImportBlocks = []byte("import.blocks") // import source block id → batch id
)

// Buckets of format 3 and before that format 4 retired: the migration to
// format 4 reads them once, into thread_spans, and deletes them.
var (
	BucketMessageBlock = []byte("message_block")   // msg id → block id
	BucketThreadMsgs   = []byte("thread_messages") // thread name 0x00 msg id → empty: a thread's sealed messages in order
)

// AllBuckets lists every bucket Open creates, in a stable order.
var AllBuckets = [][]byte{
	BucketMeta, BucketThreads, BucketMessages, BucketReceipts,
	BucketBlocks, BucketThreadBlocks, BucketThreadSpans, BucketEvents, BucketEventRank, BucketBlockEvents, BucketUseReceipts, BucketGraphNodes,
	BucketGraphEdges, BucketGraphFacts, BucketGraphNames, BucketGraphLinks, BucketGraphBatches, BucketJobs, BucketJobQueue, BucketUse,
	BucketRetrievals, BucketImports, BucketAssessments, BucketImportBlocks,
}
