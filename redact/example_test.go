package redact_test

import (
	"fmt"

	"github.com/stratagate/stratagate/redact"
)

func ExampleString() {
	msg := `deploy with PASSWORD=hunter2 and curl -H "Authorization: Bearer abc.def.ghi" ` +
		"https://mia:s3cret@git.example.com/repo.git"
	fmt.Println(redact.String(msg))
	// Output:
	// deploy with PASSWORD=[redacted:secret] and curl -H "Authorization: Bearer [redacted:bearer_token]" https://[redacted:url_credentials]@git.example.com/repo.git
}

func ExampleFind() {
	msg := "the db password: hunter2, the task-force asked"
	for _, f := range redact.Find(msg) {
		fmt.Println(f.Kind, msg[f.Start:f.End])
	}
	// Output:
	// secret hunter2
}
