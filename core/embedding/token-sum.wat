;; The static model's inner loop: a text's vector is the sum of its tokens' int8 table rows,
;; each times a factor (the row's scale x how often the token occurs). Assembled into
;; token-sum-wasm.ts by `node test/build/assemble-wasm.mjs --write`.
(module
  (memory (export "memory") 1)
  ;; acc[k] += weights[ids[j] * dim + k] * factors[j] for j < n, k < dim (f32; dim a multiple of 16).
  (func (export "accumulate") (param $weights i32) (param $dim i32) (param $ids i32) (param $factors i32) (param $n i32) (param $acc i32)
    (local $j i32) (local $k i32) (local $row i32) (local $a i32) (local $f v128) (local $w v128) (local $lo v128) (local $hi v128)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $j) (local.get $n)))
        (local.set $row (i32.add (local.get $weights)
          (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $j) (i32.const 2)))) (local.get $dim))))
        (local.set $f (f32x4.splat (f32.load (i32.add (local.get $factors) (i32.shl (local.get $j) (i32.const 2))))))
        (local.set $k (i32.const 0))
        ;; 16 weights a step: widened to i16, then to four lanes of i32 each, converted and added.
        (loop $cols
          (local.set $w (v128.load (i32.add (local.get $row) (local.get $k))))
          (local.set $a (i32.add (local.get $acc) (i32.shl (local.get $k) (i32.const 2))))
          (local.set $lo (i16x8.extend_low_i8x16_s (local.get $w)))
          (local.set $hi (i16x8.extend_high_i8x16_s (local.get $w)))
          (v128.store (local.get $a) (f32x4.add (v128.load (local.get $a))
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (local.get $lo))) (local.get $f))))
          (v128.store offset=16 (local.get $a) (f32x4.add (v128.load offset=16 (local.get $a))
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_high_i16x8_s (local.get $lo))) (local.get $f))))
          (v128.store offset=32 (local.get $a) (f32x4.add (v128.load offset=32 (local.get $a))
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (local.get $hi))) (local.get $f))))
          (v128.store offset=48 (local.get $a) (f32x4.add (v128.load offset=48 (local.get $a))
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_high_i16x8_s (local.get $hi))) (local.get $f))))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br_if $cols (i32.lt_u (local.get $k) (local.get $dim))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rows)))))
