// Package experiment is how simctl runs an experiment: the designs that
// play a scenario's encounters and say what changed. A plain run is
// sim.Run; here are the designs over it:
//
//   - common random numbers (crn.go: RunCRN, RunPaired): every option plays
//     encounter i from the same stream, so differences cancel shared luck;
//     simctl compare;
//   - sweeps with sequential stopping (sweep.go: RunSweep, PrecisionReached):
//     one game per grid point, optionally stopped once the intervals are
//     narrow; simctl sweep, and run and compare with --precision;
//   - exchange rates and sensitivity (value.go, sensitivity.go): each
//     parameter stepped down and up, its marginal effect, the rates between
//     parameters with Fieller intervals, and the tornado; simctl value;
//   - the tactic matrix (matrix.go): every pairing of options, dominated
//     options, the zero-sum equilibrium by linear programming; simctl matrix;
//   - selection (select.go: Select, SelectState, PlayStage): the best of
//     many candidates on common random numbers, by sequential tests valid
//     under continuous monitoring, with a guarantee for the whole
//     procedure; a stage shards (PlayStage, StageSums.Merge, Apply);
//     simctl tournament, and the core of simctl optimize;
//   - the search (optimize*.go: Space, Optimize, DoubleOracle): a space of
//     settings and tactics structures, screened by successive halving when
//     too large, the best chosen by Select and confirmed on fresh
//     encounters, or both sides' equilibrium by double oracle over
//     matrix.go's solver; simctl optimize;
//   - finding encounters (find.go): which encounters match a condition, and
//     which is the min, median, max or a percentile of a metric; simctl find
//     and trace --pick.
//
// Statistics come from package stats; rendering is package reports'.
//
// Interrupted experiments resume: RunCRN reports the encounter index
// ranges a cancelled run did not play (RunConfig.Unplayed, as sim.Run
// does), so compare, value and matrix play only those and add their exact
// sums; a selection returns (and, through OnStage, checkpoints) the State
// after its last finished stage, which SelectConfig.Resume goes on from.
//
// Concurrency: each runner follows sim.Run's rule. Games are compiled once
// and shared read-only; every worker owns its tables, random stream and
// accumulators, claims chunks of encounter indices from one atomic counter,
// and the accumulators merge after the workers finish, so results do not
// depend on the number of workers and shards merge exactly (every figure
// is an integer sum).
package experiment
