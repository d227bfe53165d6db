#pragma once
// Points (x[i], y[i]) inside the unit quarter circle, counted on the GPU.
unsigned long long count_inside(const float* d_x, const float* d_y, int n);
