package telemetry

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"time"
)

// The export's schedule, unless the OpenTelemetry environment variables
// of the same meaning say otherwise.
const (
	// batchDelay is how long spans wait before they are sent
	// (OTEL_BSP_SCHEDULE_DELAY, ms): a busy serve holds the spans of
	// that long, written as they are sent (~600 bytes each).
	batchDelay = time.Second
	// batchSize is the most spans a request carries; a batch that
	// reaches it is sent at once (OTEL_BSP_MAX_EXPORT_BATCH_SIZE).
	batchSize = 512
	// batchBytes is the most bytes of spans a batch holds before it is
	// sent at once, whatever its count: ~100 spans of a call, so that a
	// busy serve holds 64 KiB of them rather than 512 (~300 KiB).
	batchBytes = 64 << 10
	// metricInterval is how often the counts are sent
	// (OTEL_METRIC_EXPORT_INTERVAL, ms), as the SDK's periodic reader.
	metricInterval = time.Minute
)

// schedule is the export's timing and batching.
type schedule struct {
	delay    time.Duration
	size     int
	interval time.Duration
}

// scheduleFromEnv reads the schedule's variables; a variable that is not
// a positive integer is ignored, as the SDK ignores it.
func scheduleFromEnv() schedule {
	return schedule{
		delay:    time.Duration(envPositive("OTEL_BSP_SCHEDULE_DELAY", int(batchDelay/time.Millisecond))) * time.Millisecond,
		size:     envPositive("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", batchSize),
		interval: time.Duration(envPositive("OTEL_METRIC_EXPORT_INTERVAL", int(metricInterval/time.Millisecond))) * time.Millisecond,
	}
}

func envPositive(name string, def int) int {
	n, err := strconv.Atoi(os.Getenv(name))
	if err != nil || n <= 0 {
		return def
	}
	return n
}

// resourceOf is the resource of every export: the service and the
// workspace, then the attributes of OTEL_RESOURCE_ATTRIBUTES
// (key=value,..., percent-encoded) whose keys are not among them, in the
// order of their keys.
func resourceOf(o Options) []attr {
	res := []attr{
		stringAttr("service.name", "clumsies"),
		stringAttr("service.version", o.Version),
		stringAttr("clumsies.workspace.id", o.WorkspaceID),
	}
	env := envHeaders(os.Getenv("OTEL_RESOURCE_ATTRIBUTES"))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if !slices.ContainsFunc(res, func(a attr) bool { return a.key == k }) {
			res = append(res, stringAttr(k, env[k]))
		}
	}
	return res
}
