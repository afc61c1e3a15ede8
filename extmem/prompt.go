package extmem

// ExportPrompt returns the prompt a user gives another AI assistant so
// that it writes what it remembers about the user as a
// stratagate.external-memory.v2 document, which Parse reads back. The
// text is fixed (docs/IMPORT.md quotes it): its bounds are this package's
// constants, and its example parses to four candidates.
func ExportPrompt() string { return exportPrompt }

// fence3 is a Markdown code fence; a Go raw string cannot hold backticks.
const fence3 = "```"

const exportPrompt = `Please export everything you remember about me as one JSON document that I can import into my own memory store, StrataGate.

Reply with exactly one JSON object inside a single ` + fence3 + `json code fence, and put nothing else inside the fence. Use the format "stratagate.external-memory.v2", with these fields:

Top level
- "format": exactly "stratagate.external-memory.v2".
- "exported_at": the current date and time (RFC 3339). It is metadata only: never use it as the date of anything in "memories".
- "source": your own name, as you would sign it (at most 200 characters).
- "memories": an array of 1 to 200 memories, one for each distinct thing you know about me.

Each memory
- "kind": "instruction" (how I want you to work or answer), "preference" (what I like or dislike), "fact" (something true about me or my situation) or "event" (something that happened, is planned, or was called off).
- "category": a short topic label such as "work", "health" or "family" (at most 64 characters).
- "title": a short headline (at most 120 characters).
- "summary": one to three sentences in your own words (at most 600 characters).
- "original_text": what I actually wrote, copied word for word from my messages: my wording, my spelling, my punctuation, not a paraphrase (at most 8000 characters). Use "" if you no longer have my exact words; never reconstruct them.
- "quotes": up to 4 short excerpts of my own words that support the memory, each copied character for character (at most 500 characters each).
- "scope": "" unless I asked for the memory to be kept for one project (at most 256 bytes).
- "criticality": "routine", "preference", "identity" (who I am) or "safety" (health, allergies, security); "" if unsure.
- "confidence": how sure you are that the memory is right and still current, from 0 to 1.
- "temporal": when it happened, following the date rules below:
  - "mentioned_at": when I told you this (RFC 3339 or YYYY-MM-DD), if you know it; otherwise "".
  - "happened_start" and "happened_end": when it happened, as RFC 3339, YYYY-MM-DD, YYYY-MM or YYYY; "" when you do not know. The end is exclusive and may be "" (the precision implies it).
  - "original_text": the time expression exactly as I said it ("last spring", "on 3 March 2024"), at most 120 characters.
  - "precision": "instant", "day", "week", "month", "season", "year", "range" (give both start and end) or "unknown".
  - "basis": "explicit" (I gave the date), "relative" (I said it relative to when I spoke, like "last week"), "inferred" (you worked it out from context), "said" (I reported it as just done) or "unknown".
  - "status": "completed", "planned", "cancelled", "ongoing" or "unknown".
  - "participants": the people involved, by name (up to 12 names, at most 64 characters each).
  - "event_type": one word or two, such as "decision", "plan", "meeting", "life_event", "activity" or "change".

Date rules (follow them strictly)
1. NEVER invent a date. If you do not know when something happened, write "precision": "unknown" and "basis": "unknown" and leave "happened_start" and "happened_end" empty.
2. A relative expression ("last spring", "two weeks ago", "next Friday") goes into temporal "original_text" with "basis": "relative", and "mentioned_at" is the date on which I said it. If you do not know that date, leave "mentioned_at" and the happened dates empty; do not guess.
3. Never use today's date or the export date as the date of an event.
4. An explicit date I gave is copied with "basis": "explicit" and the precision I gave it in: a month without a day is "month", a year alone is "year".

Copy my words; do not improve them. Leave out secrets (passwords, keys, tokens). Include the instructions I gave you about how to answer me. Keep one memory per fact or event; do not merge unrelated things.

Example (it shows the shape only; write your own memories about me):

` + fence3 + `json
{
  "format": "stratagate.external-memory.v2",
  "exported_at": "2024-10-02T18:30:00Z",
  "source": "Example Assistant",
  "memories": [
    {
      "kind": "instruction",
      "category": "answers",
      "title": "Distances in kilometres",
      "summary": "Give distances in kilometres, never in miles.",
      "original_text": "Please always give me distances in kilometres, not miles.",
      "quotes": ["always give me distances in kilometres"],
      "criticality": "preference",
      "confidence": 0.95
    },
    {
      "kind": "event",
      "category": "hobbies",
      "title": "Started cello lessons",
      "summary": "Began taking cello lessons and now practises every evening.",
      "original_text": "I started cello lessons last spring and I practise every evening now.",
      "quotes": ["I started cello lessons last spring"],
      "confidence": 0.9,
      "temporal": {
        "mentioned_at": "2024-09-14",
        "original_text": "last spring",
        "precision": "season",
        "basis": "relative",
        "status": "ongoing",
        "event_type": "activity"
      }
    },
    {
      "kind": "fact",
      "category": "home",
      "title": "Moved to Rotterdam",
      "summary": "Moved to Rotterdam with Jonas in March 2021.",
      "original_text": "Jonas and I moved to Rotterdam in March 2021.",
      "confidence": 0.85,
      "temporal": {
        "happened_start": "2021-03",
        "original_text": "in March 2021",
        "precision": "month",
        "basis": "explicit",
        "status": "completed",
        "participants": ["Jonas"],
        "event_type": "life_event"
      }
    },
    {
      "kind": "event",
      "category": "sport",
      "title": "Ran a half marathon",
      "summary": "Once ran a half marathon; when is not known.",
      "original_text": "I ran a half marathon once, but that was ages ago.",
      "confidence": 0.7,
      "temporal": {
        "original_text": "ages ago",
        "precision": "unknown",
        "basis": "unknown",
        "status": "completed",
        "event_type": "activity"
      }
    }
  ]
}
` + fence3 + `
`
