package networks

const (
	StatusActive = "ACTIVE"
	StatusBuild  = "BUILD"
	StatusDown   = "DOWN"
	StatusError  = "ERROR"
)
