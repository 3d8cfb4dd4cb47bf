// attack: include the course's own solution through the grader's working folder
// exercise: 01-vector-add
// expect: fail compile
#include "/proc/self/cwd/solutions/01-vector-add/kernel.cu"
