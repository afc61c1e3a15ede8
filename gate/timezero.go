package gate

import "time"

// timeZero resolves only explicit time expressions (the reference time of
// text whose relative times are not needed).
var timeZero time.Time
