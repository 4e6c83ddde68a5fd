// #[bench] functions for the libtest engine tests: `cargo bench` with RUSTC_BOOTSTRAP=1 (the
// unstable `test` crate on a stable toolchain). The work per iteration is read from the
// BH_LIBTEST_WORK environment variable at run time, so a test can change it without a rebuild.
#![feature(test)]
extern crate test;

pub fn spin(n: u64) -> u64 {
    (0..n).fold(1u64, |x, _| x.wrapping_mul(6364136223846793005).wrapping_add(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use test::Bencher;

    fn work() -> u64 {
        std::env::var("BH_LIBTEST_WORK").ok().and_then(|v| v.parse().ok()).unwrap_or(1000)
    }

    #[bench]
    fn bench_spin(b: &mut Bencher) {
        let n = work();
        b.iter(|| spin(test::black_box(n)));
    }

    #[bench]
    fn bench_copy(b: &mut Bencher) {
        let src = vec![7u8; 4096];
        b.bytes = src.len() as u64;
        b.iter(|| test::black_box(src.clone()));
    }

    #[bench]
    #[ignore]
    fn bench_ignored(b: &mut Bencher) {
        b.iter(|| 1);
    }

    #[test]
    fn spin_is_deterministic() {
        assert_eq!(spin(3), spin(3));
    }
}
