//! Every Rust construct the index keeps.
use std::fmt;

pub struct Point<T> {
    x: T,
    y: T,
}

struct Unit;

pub enum Shape {
    Circle(f64),
    Square(f64),
}

pub union Bits {
    i: u32,
    f: f32,
}

pub trait Area {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        String::from("shape")
    }
}

type Pair = (i32, i32);

impl<T> Point<T> {
    pub fn new(x: T, y: T) -> Self {
        Point { x, y }
    }
}

impl Area for Shape {
    fn area(&self) -> f64 {
        match self {
            Shape::Circle(r) => 3.14 * r * r,
            Shape::Square(s) => s * s,
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "unit")
    }
}

mod geometry {
    pub fn distance(a: f64, b: f64) -> f64 {
        (a - b).abs()
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub async fn fetch() {}

fn main() {
    fn inner() {}
    inner();
}
