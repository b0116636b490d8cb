// A generic tuple struct is two mistakes, reported together.
use annotations::Tool;

#[derive(Tool)]
struct Search<T>(T);

fn main() {}
