package otelexport

import (
	"context"
	"os/user"
	"runtime/debug"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
)

// bridgeResource is the resource the bridge's logs and traces are sent
// under: the service name, the host, the SDK, the attributes naming this
// bridge (resourceAttrs, the identity filled in), then
// OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME over all of them.
func bridgeResource(ctx context.Context, c Config) (*resource.Resource, error) {
	c.BridgeVersion, c.User = identity(c.BridgeVersion, c.User)
	return resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "acp-bridge")),
		resource.WithHost(), resource.WithTelemetrySDK(),
		resource.WithAttributes(resourceAttrs(&c)...),
		resource.WithFromEnv())
}

// identity returns the resource attributes that name this bridge when the
// configuration leaves them empty: its module version and the user running
// it.
func identity(version, username string) (string, string) {
	if version == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			version = bi.Main.Version
		}
	}
	if username == "" {
		if u, err := user.Current(); err == nil {
			username = u.Username
		}
	}
	return version, username
}
