//! Writes rtl-out/ from the Rust sources without building the test bench (and its Verilated
//! models): `cargo run --release -p hdl --example export`. `hpcc-nic export` does the same.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out");
    let report = hdl::export::write_all(&dir, &hdl::export::all()?)?;
    for f in &report.changed {
        println!("wrote     rtl-out/{f}");
    }
    println!("{} files unchanged", report.unchanged.len());
    Ok(())
}
