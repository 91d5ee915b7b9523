package reconcile

// Reasons of the Events the controller records about a Network, besides the Ready
// condition reasons of pkg/apis/samplecrd/v1, which failures are recorded under.
const (
	reasonNetworkCreated   = "NetworkCreated"
	reasonNetworkAdopted   = "NetworkAdopted"
	reasonSubnetCreated    = "SubnetCreated"
	reasonNetworkUpdated   = "NetworkUpdated"
	reasonGatewayUpdated   = "GatewayUpdated"
	reasonSubnetUpdated    = "SubnetUpdated"
	reasonSubnetDeleted    = "SubnetDeleted"
	reasonSubnetKept       = "SubnetKept"
	reasonDuplicateDeleted = "DuplicateDeleted"
	reasonNeutronDeleted   = "NeutronDeleted"
	reasonNeutronRetained  = "NeutronRetained"
	reasonNetworkShared    = "NetworkShared"
	reasonNetworkUnshared  = "NetworkUnshared"
	reasonRouterCreated    = "RouterCreated"
	reasonRouterUpdated    = "RouterUpdated"
	reasonRouterDeleted    = "RouterDeleted"
	reasonSubnetAttached   = "SubnetAttached"
	reasonSubnetDetached   = "SubnetDetached"
)
