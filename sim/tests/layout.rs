//! The bit layouts of `sim::layout`: well formed, packing round-trips, and the docs' tables
//! are the definitions'.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::{Field, Layout, ALL, VARIANTS};
use std::path::Path;

#[test]
fn layouts_are_well_formed() {
    for l in ALL {
        assert_eq!(l.fault(), None);
        let names: Vec<_> = l.fields.iter().map(|f| f.name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{}: a field name repeats", l.name);
    }
}

#[test]
fn a_bad_layout_is_caught() {
    const OVERLAP: &[Field] = &[
        Field { name: "a", lo: 0, width: 8, about: "" },
        Field { name: "b", lo: 7, width: 8, about: "" },
    ];
    const OUTSIDE: &[Field] = &[Field { name: "a", lo: 60, width: 8, about: "" }];
    assert!(Layout { name: "x", width: 64, doc: "", fields: OVERLAP }.fault().is_some());
    assert!(Layout { name: "x", width: 64, doc: "", fields: OUTSIDE }.fault().is_some());
}

#[test]
fn fields_pack_and_unpack_without_touching_their_neighbours() {
    let seed = rand::random::<u64>();
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for l in ALL {
        let words = l.width.div_ceil(32);
        for _ in 0..200 {
            let before: Vec<u32> = (0..words).map(|_| rng.gen()).collect();
            for f in l.fields.iter().filter(|f| f.width <= 64) {
                let mut w = before.clone();
                let v: u64 = rng.gen();
                f.set(&mut w, v);
                let mask = if f.width == 64 { u64::MAX } else { (1 << f.width) - 1 };
                assert_eq!(f.get(&w), v & mask, "{}.{}", l.name, f.name);
                // Every bit outside the field is as it was.
                for b in (0..l.width).filter(|b| *b < f.lo || *b >= f.lo + f.width) {
                    assert_eq!(w[b / 32] >> (b % 32) & 1, before[b / 32] >> (b % 32) & 1);
                }
            }
        }
    }
}

#[test]
fn docs_tables_are_the_definitions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for l in ALL {
        let doc = std::fs::read_to_string(root.join(l.doc)).unwrap();
        let open = format!("<!-- layout {} -->\n", l.name);
        let at = doc.find(&open).unwrap_or_else(|| panic!("{} has no `{open}`", l.doc));
        let body = &doc[at + open.len()..];
        let end = body.find("<!-- end layout -->").expect("an end marker");
        if std::env::var_os("UPDATE_LAYOUT_DOCS").is_some() {
            let new = format!("{}{}{}", &doc[..at + open.len()], l.table(), &body[end..]);
            std::fs::write(root.join(l.doc), new).unwrap();
            continue;
        }
        assert!(
            body[..end] == l.table(),
            "{}: the {} table differs from sim/src/layout.rs (UPDATE_LAYOUT_DOCS=1 rewrites it); it should read:\n{}",
            l.doc,
            l.name,
            l.table()
        );
    }
}

#[test]
fn two_forms_of_one_word_agree_on_their_shared_fields() {
    for (a, b) in VARIANTS {
        assert_eq!(a.width, b.width, "{} / {}", a.name, b.name);
        let mut shared = 0;
        for f in a.fields {
            if let Some(g) = b.fields.iter().find(|g| g.name == f.name) {
                assert_eq!((f.lo, f.width), (g.lo, g.width), "{}.{} / {}.{}", a.name, f.name, b.name, g.name);
                shared += 1;
            }
        }
        assert!(shared > 0, "{} and {} share no field", a.name, b.name);
    }
}

#[test]
fn byte_access_is_word_access() {
    let seed = rand::random::<u64>();
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for l in ALL {
        let words = l.width.div_ceil(32);
        for f in l.fields.iter().filter(|f| f.width <= 64) {
            let mut w: Vec<u32> = (0..words).map(|_| rng.gen()).collect();
            let mut b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
            assert_eq!(f.get_le(&b), f.get(&w), "{}.{}", l.name, f.name);
            let v: u64 = rng.gen();
            f.set(&mut w, v);
            f.set_le(&mut b, v);
            assert_eq!(b, w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>(), "{}.{}", l.name, f.name);
        }
    }
}
