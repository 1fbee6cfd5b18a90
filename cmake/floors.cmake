# The floors of the code base (docs/architecture.md): a folder of src/ may include headers of its
# own floor and of the floors below it, never above. The libraries of CMakeLists.txt link only
# downwards, so an upward call does not link; this check makes an upward #include fail the
# configure step (and so the build) with the file and line named, before anything compiles.
#
# Used two ways: include()d by CMakeLists.txt (checks ${PROJECT_SOURCE_DIR}/src), and as a script
# by the test tests/cli/floors.sh: cmake -DUR_FLOORS_ROOT=<a src folder> -P cmake/floors.cmake.

# Lowest first. solver and ai share a floor in the design; ai reads solved tables, so solver sits
# just below it.
set(UR_FLOORS rules engine solver ai analysis server cli)

function(ur_check_floors root)
  set(violations "")
  list(LENGTH UR_FLOORS n)
  foreach(level RANGE 0 ${n})
    if(level EQUAL n)
      break()
    endif()
    list(GET UR_FLOORS ${level} floor)
    file(GLOB_RECURSE files ${root}/${floor}/*.h ${root}/${floor}/*.cpp)
    foreach(file ${files})
      file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z_]+/")
      foreach(line ${includes})
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([a-z_]+)/.*" "\\1" target "${line}")
        list(FIND UR_FLOORS ${target} target_level)
        if(target_level GREATER level)
          file(RELATIVE_PATH rel ${root} ${file})
          string(APPEND violations "\n  ${rel}: ${line}  (${floor} may not include ${target})")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(violations)
    message(FATAL_ERROR "upward include across the floors "
                        "(${UR_FLOORS}; lowest first):${violations}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND UR_FLOORS_ROOT)
  ur_check_floors(${UR_FLOORS_ROOT})
  message(STATUS "floors: no upward include under ${UR_FLOORS_ROOT}")
endif()
