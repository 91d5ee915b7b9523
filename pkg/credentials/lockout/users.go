package lockout

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Keystone on MariaDB or MySQL finds a user by name through the column's collation, by
// default one that ignores case, accents and trailing spaces: "Bob", "bob " and "Böb" log
// in as one user, whose refusals Keystone counts together. So the gate counts them
// together too, under one spelling. The fold merges a little more than a collation does
// (leading spaces, every mark), which only ever counts more, never less. A user's ID and
// its name are two spellings the gate joins once a token shows both (lockouts.link); until
// then each gets fewer refusals (lockouts.limitOf), so that the two together stay under
// Keystone's threshold.

// foldUserName is the one spelling of a user name the gate counts under.
func foldUserName(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(strings.TrimFunc(name, unicode.IsSpace)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// canonicalLockoutUser is a TokenRequester.LockoutUser ("id:<ID>" or "name:<name>") in the
// one spelling the gate counts it under.
func canonicalLockoutUser(user string) string {
	switch kind, rest, _ := strings.Cut(user, ":"); kind {
	case "id":
		return "id:" + strings.ToLower(strings.TrimFunc(rest, unicode.IsSpace))
	case "name":
		return "name:" + foldUserName(rest)
	}
	return user
}
