// Package shapes has one of every Go construct the index keeps.
package shapes

import "fmt"

// Shape is implemented by every figure.
type Shape interface {
	Area() float64
	Perimeter() float64
}

type (
	// Point is exported.
	Point  struct{ X, Y float64 }
	point  struct{ x int }
	Meters float64
	Alias  = Point
)

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s Stack[T]) Len() int {
	return len(s.items)
}

func (p *Point) Move(dx, dy float64) {
	p.X += dx
	p.Y += dy
}

func NewPoint(x, y float64) *Point {
	type local struct{ n int }
	helper := func() {}
	helper()
	_ = local{}
	return &Point{x, y}
}

func unexported() { fmt.Println("}") }

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
