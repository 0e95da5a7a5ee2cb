package tactics

import "simctl/sim/lang"

// The language's names, so the bindings need import only this package.
type (
	Type    = lang.Type
	ArgKind = lang.ArgKind
	Fact    = lang.Fact
	Env     = lang.Env
	Param   = lang.Param
	Slot    = lang.Slot
	Program = lang.Program
	Machine = lang.Machine
	Error   = lang.Error
)

// Fact types.
const (
	Number = lang.Number
	Bool   = lang.Bool
)

// MaxSlots is how many distinct facts a condition reads at most.
const MaxSlots = lang.MaxSlots

// The argument kinds the rulesets' facts take: ally("NAME").acted,
// enemy("NAME").down, spell("NAME").left.
const (
	NoArg    = lang.NoArg
	AllyArg  = lang.NoArg + 1
	EnemyArg = lang.NoArg + 2
	SpellArg = lang.NoArg + 3 // one of self's spells
)

// Compile parses, checks and compiles a condition against env.
func Compile(src string, env *Env) (*Program, *Error) { return lang.Compile(src, env) }
