/**
 * /api/tracking/conversion.js, for conversion confirmation pages. Reads the click id the click
 * script kept and reports the lead through the keyless pixel of the Buddy origin it was loaded
 * from. `data-type` reports on load; `window.buddy.conversion(type)` on demand. The pixel records
 * leads only (CONTRACT §5): a value or options passed to `conversion` are not sent, and the first
 * such call in the page's life says so in the console (the flag lives on `window.buddy`, so a
 * second copy of the script warns no more).
 */
export const CONVERSION_SCRIPT = `(function(w,d){"use strict";
var K="buddy_bclickid",T="buddy_bclickid_ts",TTL=2592e6,b=w.buddy=w.buddy||{},s=d.currentScript;
var org=s&&s.getAttribute("data-org"),base=s?s.src.replace(/\\/api\\/tracking\\/conversion\\.js.*$/,""):"";
function id(){try{var l=w.localStorage,v=l.getItem(K),t=+l.getItem(T);return v&&t&&Date.now()-t<=TTL?v:null}catch(e){return null}}
b.conversion=function(type,value,o){
if((value!=null||o!=null)&&!b._warned){b._warned=1;var k=w.console;if(k&&k.warn)k.warn("Buddy: conversion(type) records leads only; the value was not sent. Send value, currency, eventId and customerId from your server with POST /api/marketing/conversion and your API key.")}
var c=id();if(!c||!org||!type)return false;
var i=new Image(1,1);i.referrerPolicy="no-referrer";
i.src=base+"/api/marketing/conversion/"+encodeURIComponent(c)+"?type="+encodeURIComponent(type)+"&org="+encodeURIComponent(org);return true};
var t=s&&s.getAttribute("data-type");if(t)b.conversion(t);
})(window,document);
`;
