package kv

// Bucket names. They are part of the file format: never rename one; retire
// it and add another.
var (
	BucketMeta         = []byte("meta")
	BucketThreads      = []byte("threads")         // thread name → Thread
	BucketMessages     = []byte("messages")        // msg id → Message (L5, append-only)
	BucketMessageBlock = []byte("message_block")   // msg id → block id, written when the message is sealed
	BucketReceipts     = []byte("receipts")        // receipt id → TurnRef
	BucketBlocks       = []byte("blocks")          // block id → Block
	BucketThreadBlocks = []byte("thread_blocks")   // thread name 0x00 seq → block id
	BucketThreadMsgs   = []byte("thread_messages") // thread name 0x00 msg id → empty: a thread's messages in order
	BucketEvents       = []byte("events")          // event id → events.Card
	BucketBlockEvents  = []byte("block_events")    // block id → ids of the cards extracted from it (written once)
	BucketUseReceipts  = []byte("use.receipts")    // receipt id → the Use it recorded
	BucketGraphNodes   = []byte("graph.nodes")
	BucketGraphEdges   = []byte("graph.edges")
	BucketGraphFacts   = []byte("graph.facts")
	BucketJobs         = []byte("jobs")       // job id → wal.Job
	BucketJobQueue     = []byte("jobs.queue") // job id → empty, for pending and running jobs only
	BucketUse          = []byte("use")
	BucketRetrievals   = []byte("retrievals")
	BucketImports      = []byte("imports")
)

// AllBuckets lists every bucket Open creates, in a stable order.
var AllBuckets = [][]byte{
	BucketMeta, BucketThreads, BucketMessages, BucketMessageBlock, BucketReceipts,
	BucketBlocks, BucketThreadBlocks, BucketThreadMsgs, BucketEvents, BucketBlockEvents, BucketUseReceipts, BucketGraphNodes,
	BucketGraphEdges, BucketGraphFacts, BucketJobs, BucketJobQueue, BucketUse,
	BucketRetrievals, BucketImports,
}
