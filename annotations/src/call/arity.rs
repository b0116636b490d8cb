//! The one list of arities a handler's call supports: from no parameters from the model to
//! sixteen (as axum's handlers). The argument reader's tuples and the function pointers the
//! adapters call are both made from it, so they always agree; a handler beyond it is refused
//! by the reader's bound, with a message that says so.

/// Calls `$m!` once per arity, with the index, a type parameter and a value name of each
/// parameter: `$m!()`, `$m!(0 A a)`, `$m!(0 A a, 1 B b)`, ...
macro_rules! for_each_arity {
    ($m:ident) => {
        $m!();
        $m!(0 A a);
        $m!(0 A a, 1 B b);
        $m!(0 A a, 1 B b, 2 C c);
        $m!(0 A a, 1 B b, 2 C c, 3 D d);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i, 9 J j);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i, 9 J j, 10 K k);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i, 9 J j, 10 K k, 11 L l);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i, 9 J j, 10 K k, 11 L l, 12 M m);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i, 9 J j, 10 K k, 11 L l, 12 M m, 13 N n);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i, 9 J j, 10 K k, 11 L l, 12 M m, 13 N n, 14 O o);
        $m!(0 A a, 1 B b, 2 C c, 3 D d, 4 E e, 5 F f, 6 G g, 7 H h, 8 I i, 9 J j, 10 K k, 11 L l, 12 M m, 13 N n, 14 O o, 15 P p);
    };
}

pub(crate) use for_each_arity;
