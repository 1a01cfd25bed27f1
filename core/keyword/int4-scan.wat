;; The vector scan's inner loop: one dot product per row of 4-bit codes against an int8 query,
;; 32 dimensions at a time (WebAssembly SIMD). Assembled into int4-scan-wasm.ts by
;; `node test/build/assemble-wasm.mjs --write`.
(module
  (memory (export "memory") 1)
  ;; out[r] = sum over dimensions d of code(r, d) * query[d], for rows r in [0, n).
  ;; A row is `stride` bytes (a multiple of 16); its 16-byte block b holds dimensions 32b..32b+15
  ;; in the low halves of its bytes and 32b+16..32b+31 in the high halves, each as code + 8
  ;; (codes -7..7). The query holds 2 * stride int8 values in dimension order.
  (func (export "scan") (param $codes i32) (param $n i32) (param $stride i32) (param $query i32) (param $out i32)
    (local $row i32) (local $j i32) (local $acc v128) (local $c v128) (local $lo v128) (local $hi v128)
    (local $q0 v128) (local $q1 v128) (local $base i32) (local $qat i32)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $base (i32.add (local.get $codes) (i32.mul (local.get $row) (local.get $stride))))
        (local.set $j (i32.const 0))
        (loop $cols
          (local.set $c (v128.load (i32.add (local.get $base) (local.get $j))))
          (local.set $lo (i8x16.sub (v128.and (local.get $c) (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15))
            (v128.const i8x16 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8)))
          (local.set $hi (i8x16.sub (i8x16.shr_u (local.get $c) (i32.const 4))
            (v128.const i8x16 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8)))
          (local.set $qat (i32.add (local.get $query) (i32.shl (local.get $j) (i32.const 1))))
          (local.set $q0 (v128.load (local.get $qat)))
          (local.set $q1 (v128.load offset=16 (local.get $qat)))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $lo)) (i16x8.extend_low_i8x16_s (local.get $q0)))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $lo)) (i16x8.extend_high_i8x16_s (local.get $q0)))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $hi)) (i16x8.extend_low_i8x16_s (local.get $q1)))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $hi)) (i16x8.extend_high_i8x16_s (local.get $q1)))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $cols (i32.lt_u (local.get $j) (local.get $stride))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rows)))))
