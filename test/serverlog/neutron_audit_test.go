package serverlog

import (
	"strings"
	"testing"
)

// Lines a Keystone-authenticated neutron-server of hack/local-neutron.sh logged (Neutron 21,
// keystonemiddleware 10.1, Debian 12) for requests made with curl.
const (
	auditGetNetworks         = `2026-11-29 01:17:49.065 3661 INFO audit [None req-a39d9922-7170-440f-bdc9-41f88136235e - - - - - -] Event type: audit.http.request, Context: {'user': None, 'project_id': None, 'system_scope': None, 'project': None, 'domain': None, 'user_domain': None, 'project_domain': None, 'is_admin': True, 'read_only': False, 'show_deleted': False, 'auth_token': None, 'request_id': 'req-a39d9922-7170-440f-bdc9-41f88136235e', 'global_request_id': None, 'resource_uuid': None, 'roles': [], 'user_identity': '- - - - -', 'is_admin_project': True}, Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity', 'id': '2fc4bb0e-1a10-5950-aea0-15ee77c3fada', 'eventTime': '2026-11-29T01:17:49.064278+0000', 'action': 'read/list', 'outcome': 'pending', 'observer': {'id': 'target'}, 'initiator': {'id': '18b4116575fe4661ad4744c082a6c8f1', 'typeURI': 'service/security/account/user', 'name': 'k8s-controller', 'credential': {'token': 'gAAAAABrC307o3kqm9ty3Um xxxxxxxx ZFvSOFD5gDqwFa3NfotanyA', 'identity_status': 'Confirmed'}, 'host': {'address': '127.0.0.1', 'agent': 'network-controller/v9.9.9 (abc123) gophercloud/v2.0.0'}, 'project_id': '39431d01de66438a9b69700671521fe6', 'request_id': 'req-3bf3773c-0f15-4ce6-8e58-4734c40a7fca', 'global_request_id': 'req-e00d93bb-3f97-4e6c-bc52-ae9ffe9c46b8'}, 'target': {'id': 'neutron', 'typeURI': 'service/network/networks', 'name': 'neutron', 'addresses': [{'url': 'http://127.0.0.1:19697/', 'name': 'admin'}, {'url': 'http://127.0.0.1:19697/', 'name': 'private'}, {'url': 'http://127.0.0.1:19697/', 'name': 'public'}]}, 'requestPath': '/v2.0/networks', 'tags': ['correlation_id?value=0216e910-05d7-5375-b967-b2458c91767f']}`
	auditGetNetworksResponse = `2026-11-29 01:17:49.471 3661 INFO audit [req-e00d93bb-3f97-4e6c-bc52-ae9ffe9c46b8 req-3bf3773c-0f15-4ce6-8e58-4734c40a7fca 18b4116575fe4661ad4744c082a6c8f1 39431d01de66438a9b69700671521fe6 - - default default] Event type: audit.http.response, Context: {'user': None, 'project_id': None, 'system_scope': None, 'project': None, 'domain': None, 'user_domain': None, 'project_domain': None, 'is_admin': True, 'read_only': False, 'show_deleted': False, 'auth_token': None, 'request_id': 'req-a39d9922-7170-440f-bdc9-41f88136235e', 'global_request_id': None, 'resource_uuid': None, 'roles': [], 'user_identity': '- - - - -', 'is_admin_project': True}, Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity', 'id': '2fc4bb0e-1a10-5950-aea0-15ee77c3fada', 'eventTime': '2026-11-29T01:17:49.064278+0000', 'action': 'read/list', 'outcome': 'success', 'observer': {'id': 'target'}, 'initiator': {'id': '18b4116575fe4661ad4744c082a6c8f1', 'typeURI': 'service/security/account/user', 'name': 'k8s-controller', 'credential': {'token': 'gAAAAABrC307o3kqm9ty3Um xxxxxxxx ZFvSOFD5gDqwFa3NfotanyA', 'identity_status': 'Confirmed'}, 'host': {'address': '127.0.0.1', 'agent': 'network-controller/v9.9.9 (abc123) gophercloud/v2.0.0'}, 'project_id': '39431d01de66438a9b69700671521fe6', 'request_id': 'req-3bf3773c-0f15-4ce6-8e58-4734c40a7fca', 'global_request_id': 'req-e00d93bb-3f97-4e6c-bc52-ae9ffe9c46b8'}, 'target': {'id': 'neutron', 'typeURI': 'service/network/networks', 'name': 'neutron', 'addresses': [{'url': 'http://127.0.0.1:19697/', 'name': 'admin'}, {'url': 'http://127.0.0.1:19697/', 'name': 'private'}, {'url': 'http://127.0.0.1:19697/', 'name': 'public'}]}, 'requestPath': '/v2.0/networks', 'tags': ['correlation_id?value=0216e910-05d7-5375-b967-b2458c91767f'], 'reason': {'reasonType': 'HTTP', 'reasonCode': '200'}, 'reporterchain': [{'role': 'modifier', 'reporterTime': '2026-11-29T01:17:49.471510+0000', 'reporter': {'id': 'target'}}]}`
	wsgiGetNetworks          = `2026-11-29 01:17:49.472 3661 INFO neutron.wsgi [req-e00d93bb-3f97-4e6c-bc52-ae9ffe9c46b8 req-3bf3773c-0f15-4ce6-8e58-4734c40a7fca 18b4116575fe4661ad4744c082a6c8f1 39431d01de66438a9b69700671521fe6 - - default default] 127.0.0.1 "GET /v2.0/networks HTTP/1.1" status: 200  len: 783 time: 1.9780881`
	auditPostNetwork         = `2026-11-29 01:18:06.336 3661 INFO audit [None req-47f458af-6f67-466a-9909-9a03ac2c3fb2 - - - - - -] Event type: audit.http.request, Context: {'user': None, 'project_id': None, 'system_scope': None, 'project': None, 'domain': None, 'user_domain': None, 'project_domain': None, 'is_admin': True, 'read_only': False, 'show_deleted': False, 'auth_token': None, 'request_id': 'req-47f458af-6f67-466a-9909-9a03ac2c3fb2', 'global_request_id': None, 'resource_uuid': None, 'roles': [], 'user_identity': '- - - - -', 'is_admin_project': True}, Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity', 'id': '4aa9c3c8-6115-5172-a421-3bf1db1d56f0', 'eventTime': '2026-11-29T01:18:06.336583+0000', 'action': 'create', 'outcome': 'pending', 'observer': {'id': 'target'}, 'initiator': {'id': '18b4116575fe4661ad4744c082a6c8f1', 'typeURI': 'service/security/account/user', 'name': 'k8s-controller', 'credential': {'token': 'gAAAAABrC307o3kqm9ty3Um xxxxxxxx ZFvSOFD5gDqwFa3NfotanyA', 'identity_status': 'Confirmed'}, 'host': {'address': '127.0.0.1', 'agent': 'network-controller/v9.9.9 (abc123) gophercloud/v2.0.0'}, 'project_id': '39431d01de66438a9b69700671521fe6', 'request_id': 'req-1e1a969a-8bad-46a3-bf7c-5d6b86cc27eb', 'global_request_id': 'req-f3b983ee-2719-4221-a454-882507134b75'}, 'target': {'id': 'neutron', 'typeURI': 'service/network/networks', 'name': 'neutron', 'addresses': [{'url': 'http://127.0.0.1:19697/', 'name': 'admin'}, {'url': 'http://127.0.0.1:19697/', 'name': 'private'}, {'url': 'http://127.0.0.1:19697/', 'name': 'public'}]}, 'requestPath': '/v2.0/networks', 'tags': ['correlation_id?value=3a9eabd9-1907-5315-9468-0a3304643440']}`
	auditPutTag              = `2026-11-29 01:18:06.914 3661 INFO audit [None req-28210cf5-898f-4936-90ee-ac2b0f2807a4 - - - - - -] Event type: audit.http.request, Context: {'user': None, 'project_id': None, 'system_scope': None, 'project': None, 'domain': None, 'user_domain': None, 'project_domain': None, 'is_admin': True, 'read_only': False, 'show_deleted': False, 'auth_token': None, 'request_id': 'req-28210cf5-898f-4936-90ee-ac2b0f2807a4', 'global_request_id': None, 'resource_uuid': None, 'roles': [], 'user_identity': '- - - - -', 'is_admin_project': True}, Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity', 'id': 'd5e744f3-df47-5e9c-92c8-bc9d4fd2d881', 'eventTime': '2026-11-29T01:18:06.914231+0000', 'action': 'update', 'outcome': 'pending', 'observer': {'id': 'target'}, 'initiator': {'id': '18b4116575fe4661ad4744c082a6c8f1', 'typeURI': 'service/security/account/user', 'name': 'k8s-controller', 'credential': {'token': 'gAAAAABrC307o3kqm9ty3Um xxxxxxxx ZFvSOFD5gDqwFa3NfotanyA', 'identity_status': 'Confirmed'}, 'host': {'address': '127.0.0.1', 'agent': 'network-controller/v9.9.9 (abc123) gophercloud/v2.0.0'}, 'project_id': '39431d01de66438a9b69700671521fe6', 'request_id': 'req-357f19bc-84be-47fe-938f-5740114623d0'}, 'target': {'id': 'neutron', 'typeURI': 'service/network/networks/network/tags/tag', 'name': 'neutron', 'addresses': [{'url': 'http://127.0.0.1:19697/', 'name': 'admin'}, {'url': 'http://127.0.0.1:19697/', 'name': 'private'}, {'url': 'http://127.0.0.1:19697/', 'name': 'public'}]}, 'requestPath': '/v2.0/networks/c7286271-d930-4916-86ec-850792c385d6/tags/blue', 'tags': ['correlation_id?value=fae80d91-f520-56e1-8fdf-f86b6985a6d8']}`
	auditQuotedAgent         = `2026-11-29 01:18:07.044 3661 INFO audit [None req-95867add-7cd9-4421-b6d3-5229c67d0d27 - - - - - -] Event type: audit.http.request, Context: {'user': None, 'project_id': None, 'system_scope': None, 'project': None, 'domain': None, 'user_domain': None, 'project_domain': None, 'is_admin': True, 'read_only': False, 'show_deleted': False, 'auth_token': None, 'request_id': 'req-95867add-7cd9-4421-b6d3-5229c67d0d27', 'global_request_id': None, 'resource_uuid': None, 'roles': [], 'user_identity': '- - - - -', 'is_admin_project': True}, Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity', 'id': 'dd68162c-3a15-5f10-ac42-2efdcd31ef19', 'eventTime': '2026-11-29T01:18:07.044766+0000', 'action': 'read/list', 'outcome': 'pending', 'observer': {'id': 'target'}, 'initiator': {'id': '18b4116575fe4661ad4744c082a6c8f1', 'typeURI': 'service/security/account/user', 'name': 'k8s-controller', 'credential': {'token': 'gAAAAABrC307o3kqm9ty3Um xxxxxxxx ZFvSOFD5gDqwFa3NfotanyA', 'identity_status': 'Confirmed'}, 'host': {'address': '127.0.0.1', 'agent': 'it\'s a "quoted" \\ agent'}, 'project_id': '39431d01de66438a9b69700671521fe6', 'request_id': 'req-dfd94eb5-d45a-4563-892d-b31abf9d9098'}, 'target': {'id': 'neutron', 'typeURI': 'service/network/ports', 'name': 'neutron', 'addresses': [{'url': 'http://127.0.0.1:19697/', 'name': 'admin'}, {'url': 'http://127.0.0.1:19697/', 'name': 'private'}, {'url': 'http://127.0.0.1:19697/', 'name': 'public'}]}, 'requestPath': '/v2.0/ports', 'tags': ['correlation_id?value=664e10c0-bdbd-59ba-8aa2-6d3e5354c877']}`
	auditNoAgent             = `2026-11-29 01:18:07.132 3661 INFO audit [None req-de9f5ebb-25de-4649-b30a-e9bdef7f5137 - - - - - -] Event type: audit.http.request, Context: {'user': None, 'project_id': None, 'system_scope': None, 'project': None, 'domain': None, 'user_domain': None, 'project_domain': None, 'is_admin': True, 'read_only': False, 'show_deleted': False, 'auth_token': None, 'request_id': 'req-de9f5ebb-25de-4649-b30a-e9bdef7f5137', 'global_request_id': None, 'resource_uuid': None, 'roles': [], 'user_identity': '- - - - -', 'is_admin_project': True}, Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity', 'id': '8e2668a1-1b8b-5813-85ce-00210b236bae', 'eventTime': '2026-11-29T01:18:07.132462+0000', 'action': 'read/list', 'outcome': 'pending', 'observer': {'id': 'target'}, 'initiator': {'id': '18b4116575fe4661ad4744c082a6c8f1', 'typeURI': 'service/security/account/user', 'name': 'k8s-controller', 'credential': {'token': 'gAAAAABrC307o3kqm9ty3Um xxxxxxxx ZFvSOFD5gDqwFa3NfotanyA', 'identity_status': 'Confirmed'}, 'host': {'address': '127.0.0.1'}, 'project_id': '39431d01de66438a9b69700671521fe6', 'request_id': 'req-4827a429-e2bb-42fa-a905-773d3f259a13'}, 'target': {'id': 'neutron', 'typeURI': 'service/network/subnets', 'name': 'neutron', 'addresses': [{'url': 'http://127.0.0.1:19697/', 'name': 'admin'}, {'url': 'http://127.0.0.1:19697/', 'name': 'private'}, {'url': 'http://127.0.0.1:19697/', 'name': 'public'}]}, 'requestPath': '/v2.0/subnets', 'tags': ['correlation_id?value=c3c04c88-469e-58d4-8fd3-3cb36c4f6f19']}`
	auditUTF8Agent           = `2026-11-29 01:18:55.101 3661 INFO audit [None req-24fd76d8-1165-4c6b-ba0e-af80bc9514cb - - - - - -] Event type: audit.http.request, Context: {'user': None, 'project_id': None, 'system_scope': None, 'project': None, 'domain': None, 'user_domain': None, 'project_domain': None, 'is_admin': True, 'read_only': False, 'show_deleted': False, 'auth_token': None, 'request_id': 'req-24fd76d8-1165-4c6b-ba0e-af80bc9514cb', 'global_request_id': None, 'resource_uuid': None, 'roles': [], 'user_identity': '- - - - -', 'is_admin_project': True}, Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity', 'id': '6e340606-3648-5677-809a-460f7375a49f', 'eventTime': '2026-11-29T01:18:55.100767+0000', 'action': 'read/list', 'outcome': 'pending', 'observer': {'id': 'target'}, 'initiator': {'id': '18b4116575fe4661ad4744c082a6c8f1', 'typeURI': 'service/security/account/user', 'name': 'k8s-controller', 'credential': {'token': 'gAAAAABrC307o3kqm9ty3Um xxxxxxxx ZFvSOFD5gDqwFa3NfotanyA', 'identity_status': 'Confirmed'}, 'host': {'address': '127.0.0.1', 'agent': 'ctl/Ã© â\x9c\x93 tab\there'}, 'project_id': '39431d01de66438a9b69700671521fe6', 'request_id': 'req-f8fcc169-7303-453f-942a-d0d9cd0ada33'}, 'target': {'id': 'neutron', 'typeURI': 'service/network/routers', 'name': 'neutron', 'addresses': [{'url': 'http://127.0.0.1:19697/', 'name': 'admin'}, {'url': 'http://127.0.0.1:19697/', 'name': 'private'}, {'url': 'http://127.0.0.1:19697/', 'name': 'public'}]}, 'requestPath': '/v2.0/routers', 'tags': ['correlation_id?value=56c85c49-e5aa-543e-8f76-af5564685edc']}`
)

func TestParseNeutronAuditRequest(t *testing.T) {
	const (
		ua      = "network-controller/v9.9.9 (abc123) gophercloud/v2.0.0"
		user    = "18b4116575fe4661ad4744c082a6c8f1"
		project = "39431d01de66438a9b69700671521fe6"
	)
	audit := func(method, action, path, rid, grid, agent string) NeutronAuditRequest {
		return NeutronAuditRequest{UserAgent: agent, Method: method, Action: action, Path: path, RequestID: rid,
			GlobalRequestID: grid, ProjectID: project, UserID: user, ClientAddress: "127.0.0.1"}
	}
	netPath := "/v2.0/networks/c7286271-d930-4916-86ec-850792c385d6"
	cases := []struct {
		name string
		line string
		want NeutronAuditRequest
		ok   bool
	}{
		{"GET with X-OpenStack-Request-ID", auditGetNetworks,
			audit("GET", "read/list", "/v2.0/networks", "req-3bf3773c-0f15-4ce6-8e58-4734c40a7fca", "req-e00d93bb-3f97-4e6c-bc52-ae9ffe9c46b8", ua), true},
		{"POST", auditPostNetwork,
			audit("POST", "create", "/v2.0/networks", "req-1e1a969a-8bad-46a3-bf7c-5d6b86cc27eb", "req-f3b983ee-2719-4221-a454-882507134b75", ua), true},
		{"PUT without X-OpenStack-Request-ID", auditPutTag,
			audit("PUT", "update", netPath+"/tags/blue", "req-357f19bc-84be-47fe-938f-5740114623d0", "", ua), true},
		{"quotes and a backslash in the User-Agent", auditQuotedAgent,
			audit("GET", "read/list", "/v2.0/ports", "req-dfd94eb5-d45a-4563-892d-b31abf9d9098", "", `it's a "quoted" \ agent`), true},
		{"no User-Agent", auditNoAgent,
			audit("GET", "read/list", "/v2.0/subnets", "req-4827a429-e2bb-42fa-a905-773d3f259a13", "", ""), true},
		{"UTF-8 User-Agent", auditUTF8Agent,
			audit("GET", "read/list", "/v2.0/routers", "req-f8fcc169-7303-453f-942a-d0d9cd0ada33", "", "ctl/é ✓ tab\there"), true},
		// The User-Agent is read where it is, not taken for the keys it spells.
		{"keys in the User-Agent", strings.Replace(auditGetNetworks, "'agent': 'network-controller/v9.9.9 (abc123) gophercloud/v2.0.0'",
			`'agent': "it's 'request_id': 'req-x', 'requestPath': '/y'"`, 1),
			audit("GET", "read/list", "/v2.0/networks", "req-3bf3773c-0f15-4ce6-8e58-4734c40a7fca", "req-e00d93bb-3f97-4e6c-bc52-ae9ffe9c46b8",
				"it's 'request_id': 'req-x', 'requestPath': '/y'"), true},
		{"the response's line", auditGetNetworksResponse, NeutronAuditRequest{}, false},
		{"the access line", wsgiGetNetworks, NeutronAuditRequest{}, false},
		{"cut short", auditGetNetworks[:len(auditGetNetworks)-40], NeutronAuditRequest{}, false},
		{"trailing text", auditGetNetworks + " x", NeutronAuditRequest{}, false},
		{"empty", "", NeutronAuditRequest{}, false},
	}
	for _, tc := range cases {
		got, ok := ParseNeutronAuditRequest(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// The access line of the same request carries the client's X-OpenStack-Request-ID first
// and Neutron's request ID second, as the audit line's global_request_id and request_id.
func TestNeutronAuditRequestMatchesAccessLine(t *testing.T) {
	a, ok := ParseNeutronAuditRequest(auditGetNetworks)
	if !ok {
		t.Fatal("audit line not parsed")
	}
	w, ok := ParseNeutronRequest(wsgiGetNetworks)
	if !ok {
		t.Fatal("access line not parsed")
	}
	if w.Method != a.Method || w.Path != a.Path || w.ProjectID != a.ProjectID || w.Status != "200" {
		t.Errorf("access line %+v does not match audit line %+v", w, a)
	}
	if want := "[" + a.GlobalRequestID + " " + a.RequestID + " "; !strings.Contains(wsgiGetNetworks, want) {
		t.Errorf("access line lacks %q", want)
	}
}

func TestPyParser(t *testing.T) {
	p := &pyParser{s: `{'a': [1, -2.5, None, True, False, {}], "b'": 'x\'y\\z\n\x41\u00e9\U0001f600', 3: 'dropped'}`}
	v, ok := p.value().(map[string]any)
	if !ok || p.bad || p.i != len(p.s) {
		t.Fatalf("value() = %#v, bad %v, at %d of %d", v, p.bad, p.i, len(p.s))
	}
	if got := v["b'"]; got != "x'y\\z\nAé😀" {
		t.Errorf("string: %q", got)
	}
	if l, _ := v["a"].([]any); len(l) != 6 || l[0] != pyNumber("1") || l[1] != pyNumber("-2.5") || l[2] != nil || l[3] != true || l[4] != false {
		t.Errorf("list: %#v", v["a"])
	}
	if len(v) != 2 {
		t.Errorf("dict has %d entries, want 2: %#v", len(v), v)
	}
	for _, bad := range []string{`{'a' 1}`, `{'a': 1`, `['a',]x`, `'abc`, `'\q'`, `'\x4'`, `{'a': nope}`, ``} {
		p := &pyParser{s: bad}
		if v := p.value(); !p.bad && p.i == len(p.s) {
			t.Errorf("%q read as %#v", bad, v)
		}
	}
}
