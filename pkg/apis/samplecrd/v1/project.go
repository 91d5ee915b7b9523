package v1

// AnnotationProject names the OpenStack project the controller creates a Network's
// Neutron resources in. The controller sets it with the finalizer, before its first
// create, because status.projectID is written only at the end of that pass: should the
// process stop in between, a later change of credentials is still checked against the
// project the resources are in, and refused, rather than followed to another project
// that would get them a second time. status.projectID, once written, is what counts; a
// value set by anyone else can only make the Network refuse its credentials.
const AnnotationProject = "network-controller.samplecrd.k8s.io/project-id"
