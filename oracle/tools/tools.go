//go:build tools

// Package tools pins the istioctl command of the Istio module this oracle follows, so
// `go build istio.io/istio/istioctl/cmd/istioctl` builds it at the version in go.mod.
package tools

import _ "istio.io/istio/istioctl/cmd/istioctl"
