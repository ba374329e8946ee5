# Merges static archives into one with ar's MRI script (the installed liblarm.a must hold every
# object it needs). Called as: cmake -DAR=ar -DOUT=liblarm.a -DIN="a.a;b.a" -P merge_archives.cmake
set(script "create ${OUT}\n")
foreach(archive ${IN})
  string(APPEND script "addlib ${archive}\n")
endforeach()
string(APPEND script "save\nend\n")
file(WRITE ${OUT}.mri "${script}")
file(REMOVE ${OUT})
execute_process(COMMAND ${AR} -M INPUT_FILE ${OUT}.mri RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "ar -M failed to merge ${IN}")
endif()
