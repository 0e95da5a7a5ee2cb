package dice_test

import (
	"errors"
	"fmt"

	"simctl/sim/dice"
)

func Example() {
	e, err := dice.Parse("4d6 kh3")
	var se *dice.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Col, se.Msg)
	}

	e = dice.MustParse("4d6kh3 + 1")
	fmt.Println(e, e.Min(), e.Max(), e.NumDice())
	fmt.Printf("mean %.4f\n", e.Mean())
	d := e.Dist()
	fmt.Printf("P(19) = %.4f, P(>= 16) = %.4f\n", d.Prob(19), d.AtLeast(16))
	// Output:
	// 5 expected + or - between terms after "4d6", found "k"
	// 4d6kh3+1 4 19 4
	// mean 13.2446
	// P(19) = 0.0162, P(>= 16) = 0.2315
}
