package neutron

import "slices"

// InProject drops what is not of projectID, in case a Neutron answered a list without
// applying its project filter; "" keeps everything.
func InProject[T interface{ Project() string }](items []T, projectID string) []T {
	if projectID == "" {
		return items
	}
	return slices.DeleteFunc(items, func(item T) bool { return item.Project() != projectID })
}

// OwnFirst returns the items of projectID when any is of it, else all of them: a name the
// project gives one of its own resources never resolves to one another project shared
// in (or, for an admin's external network, made), however it is named there. "" (a
// Neutron without authentication) prefers nothing.
func OwnFirst[T interface{ Project() string }](items []T, projectID string) []T {
	if projectID == "" {
		return items
	}
	if own := InProject(slices.Clone(items), projectID); len(own) > 0 {
		return own
	}
	return items
}
