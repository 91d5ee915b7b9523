package registry

import (
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A password naming its user in a spelling Keystone's database may take for another user
// is refused when the cloud is read, before any token request; the spellings taken are the
// ones the lockout gate counts under.
func TestPasswordUserSpellingsTheGateCannotCountAreRefused(t *testing.T) {
	const id = "5f3a0c1e9b7d4e2f8a6c1d3e5f7a9b0c"
	cloud := func(user string) (string, string, error) {
		auth := "      auth_url: " + testAuthURL + "\n" + user + "      password: x\n      project_name: p\n      project_domain_name: Default\n"
		c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(auth)}, "team-a", policyForTest(t))
		return c.Requester.LockoutUser, c.Requester.LockoutDomain, err
	}
	for _, bad := range []string{
		"      user_id: 5f3á" + id[4:] + "\n",
		"      user_id: \"" + id + " \"\n",
		"      username: aliße\n      user_domain_name: Default\n",
		"      username: \"alice \"\n      user_domain_name: Default\n",
		"      username: alice\n      user_domain_name: Défault\n",
	} {
		_, _, err := cloud(bad)
		e, ok := AsError(err)
		if !ok || e.Reason != samplecrdv1.ReasonCloudsYAMLInvalid || !strings.Contains(e.Message, "application credential") {
			t.Errorf("%q: %v, want %s saying what to do", bad, err, samplecrdv1.ReasonCloudsYAMLInvalid)
		}
	}
	user, domain, err := cloud("      user_id: " + strings.ToUpper(id) + "\n")
	if err != nil || user != "id:"+id || domain != "" {
		t.Errorf("an ID in capitals: %q %q %v, want id:%s", user, domain, err, id)
	}
	user, domain, err = cloud("      username: Alice\n      user_domain_name: DEFAULT\n")
	if err != nil || user != "name:alice" || domain != "name:default" {
		t.Errorf("a name: %q %q %v, want name:alice in name:default", user, domain, err)
	}
}
