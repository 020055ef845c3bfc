// Package gcpace sets how the garbage collector paces itself, the target
// percentage (GOGC) and the soft memory limit (GOMEMLIMIT), which are one
// setting for the whole process, on behalf of the parts that want a say:
// a serving process keeps its heap close to what it holds
// (FollowServing), a bulk job, a rebuild of the read models, trades
// memory for CPU while it runs (Bulk), and a lean job, a large publish
// into them, CPU for memory (Lean).
//
// The process's own setting is made through SetPercent and SetLimit.
// While a job runs, they record the setting and the last job's end
// applies it, so that neither side undoes the other.
package gcpace
