// pattern: double-precision sin / cos of arguments large enough to take the Payne-Hanek reduction path (__internal_trig_reduction_slowpathd: mad.lo.cc / madc / addc / subc carry chains) (CUDA math library: any double-precision sin/cos/tan/sincos of a large argument)
// issue-18 item: 3
// run: tilecamp profile tests/data/public/double_sin_cos.cu --kernel sinCos --grid 1 --block 32 --arg f64[64]=zeros
// diagnostics: none
// expect: out[2i] == sin(x_i), out[2i+1] == cos(x_i) for x_i = (i - 16) * 123456.789 + 0.5, i = 0..31, within CUDA's documented 2 ulp of the C library (abs. error <= 2.3e-16); no diagnostic
__global__ void sinCos(double* out) {
  const int i = threadIdx.x;
  const double x = (i - 16) * 123456.789 + 0.5;
  out[2 * i] = sin(x);
  out[2 * i + 1] = cos(x);
}
