;; The vector scan's inner loop: one int8 dot product per row, 16 lanes at a time (WebAssembly
;; SIMD). Assembled into int8-scan-wasm.ts by `node test/build/assemble-wasm.mjs --write`.
(module
  (memory (export "memory") 1)
  ;; out[r] = sum over j < stride of codes[r * stride + j] * query[j], for rows r in [0, n).
  ;; stride is a multiple of 16; int8 × int8 products summed in int32.
  (func (export "scan") (param $codes i32) (param $n i32) (param $stride i32) (param $query i32) (param $out i32)
    (local $row i32) (local $j i32) (local $acc v128) (local $c v128) (local $q v128) (local $base i32)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $base (i32.add (local.get $codes) (i32.mul (local.get $row) (local.get $stride))))
        (local.set $j (i32.const 0))
        (loop $cols
          (local.set $c (v128.load (i32.add (local.get $base) (local.get $j))))
          (local.set $q (v128.load (i32.add (local.get $query) (local.get $j))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $c)) (i16x8.extend_low_i8x16_s (local.get $q)))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $c)) (i16x8.extend_high_i8x16_s (local.get $q)))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $cols (i32.lt_u (local.get $j) (local.get $stride))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rows)))))
