package v1

// ConditionPasswordCredentials is True while the Network authenticates with a password of
// its namespace's Secret that the controller warns about (-tenant-passwords=warn): Keystone
// locks a user out after refused logins, and the operator may come to refuse passwords
// (PasswordCredentialsRefused). Ready is not changed by it. It goes once the Secret holds
// an application credential.
const ConditionPasswordCredentials = "PasswordCredentials"

// ReasonPasswordCredentialsInUse is the reason of ConditionPasswordCredentials and of the
// Warning Event raised when it appears.
const ReasonPasswordCredentialsInUse = "PasswordCredentialsInUse"
