package site

// HostAllowed reports whether the site answers to host (a URL's Host:
// name and port) given its allowed names (Config.AllowedHosts): the MCP
// Apps sandbox (server/sandbox) serves only pages of such hosts.
func HostAllowed(host string, allowed []string) bool { return hostAllowed(host, allowed) }
