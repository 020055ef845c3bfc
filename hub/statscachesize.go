package hub

import "reflect"

// mapEntryOverhead is what sizeOf adds per map entry for the map's own
// buckets, beyond its keys and values.
const mapEntryOverhead = 16

// sizeOf estimates the bytes v holds: its own size and the memory its
// strings, slices (their capacity), maps and pointers refer to, each time
// they are reached (shared memory is counted at each reference, so the
// estimate is never below what v keeps alive on its own). It bounds the
// stats caches by weight.
func sizeOf(v any) int {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return 0
	}
	return int(rv.Type().Size()) + referred(rv)
}

// referred returns the bytes v refers to outside its own size.
func referred(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		n := v.Cap() * int(v.Type().Elem().Size())
		for i := range v.Len() {
			n += referred(v.Index(i))
		}
		return n
	case reflect.Array:
		n := 0
		for i := range v.Len() {
			n += referred(v.Index(i))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		per := int(v.Type().Key().Size()+v.Type().Elem().Size()) + mapEntryOverhead
		n := v.Len() * per
		for it := v.MapRange(); it.Next(); {
			n += referred(it.Key()) + referred(it.Value())
		}
		return n
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		return int(e.Type().Size()) + referred(e)
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += referred(v.Field(i))
		}
		return n
	}
	return 0
}
