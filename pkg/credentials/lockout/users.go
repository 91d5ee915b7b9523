package lockout

import (
	"fmt"
	"strings"
)

// Keystone counts refused logins per user, and finds the user of a password by ID or by
// name through its database's collation: on MariaDB one that ignores case and trailing
// spaces and, depending on the collation (utf8mb3_general_ci, uca1400_ai_ci, ...), accents,
// "ß" against "s" or "ss", and more. The gate cannot count spellings together that it
// cannot tell apart, so it takes only spellings whose every collation agrees: an ID as
// Keystone makes them (ASCII hex digits and dashes), a name of printable ASCII without
// surrounding spaces. For those, two spellings are one user exactly when they are equal
// in ASCII lower case. Anything else is refused before any request (CanonicalUser).

const maxSpellingLength = 255

// CanonicalUserID returns a user ID in the one spelling the gate counts it under, or an
// error saying why it is not an ID Keystone makes.
func CanonicalUserID(id string) (string, error) {
	if id == "" || len(id) > 64 {
		return "", fmt.Errorf("a Keystone user ID has 1 to 64 characters, this one %d", len(id))
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == '-') {
			return "", fmt.Errorf("a Keystone user ID has only hex digits and dashes, this one has %q", r)
		}
	}
	return strings.ToLower(id), nil
}

// CanonicalName returns a user or domain name in the one spelling the gate counts it
// under, or an error saying why the gate cannot count it safely.
func CanonicalName(name string) (string, error) {
	if name == "" || len(name) > maxSpellingLength {
		return "", fmt.Errorf("the name has %d bytes, 1 to %d are counted safely", len(name), maxSpellingLength)
	}
	if name[0] == ' ' || name[len(name)-1] == ' ' {
		return "", fmt.Errorf("the name begins or ends with a space, which Keystone's database may ignore")
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c > 0x7e {
			return "", fmt.Errorf("the name has a byte outside printable ASCII (0x%02x), which Keystone's database may compare equal to other spellings", c)
		}
	}
	return strings.ToLower(name), nil
}

// CanonicalUser returns the TokenRequester.LockoutUser and LockoutDomain of a password
// that names its user by userID, or by userName in the domain domainID or domainName: the
// spellings the gate counts under. An error says which value cannot be counted safely;
// such credentials are refused before any token request.
func CanonicalUser(userID, userName, domainID, domainName string) (user, domain string, err error) {
	if userID != "" {
		id, err := CanonicalUserID(userID)
		if err != nil {
			return "", "", fmt.Errorf("user_id: %w", err)
		}
		return "id:" + id, "", nil
	}
	name, err := CanonicalName(userName)
	if err != nil {
		return "", "", fmt.Errorf("username: %w", err)
	}
	switch {
	case domainID != "":
		d, err := CanonicalName(domainID)
		if err != nil {
			return "", "", fmt.Errorf("user_domain_id: %w", err)
		}
		domain = "id:" + d
	case domainName != "":
		d, err := CanonicalName(domainName)
		if err != nil {
			return "", "", fmt.Errorf("user_domain_name: %w", err)
		}
		domain = "name:" + d
	}
	return "name:" + name, domain, nil
}
